/**
 * NexusPHP rows → mirror rows (columns in sources/mirror/columns.ts). The source does the conversions it does best —
 * DATETIME → epoch seconds with UNIX_TIMESTAMP() in the session time zone (NULL and zero dates
 * become NULL), binary hashes → LOWER(HEX()), enum('yes','no') → 1/0 — and this module turns the
 * answers into mirror types, filling the mirror's NOT NULL columns from sensible neighbours.
 *
 * TIMESTAMP columns (claims.created_at/updated_at) are Laravel's: it writes the site's wall clock
 * through a connection that sets no time zone, so the server stored that text as a time in its own
 * zone (@@global.time_zone). Read back in that zone, the text is the site's wall clock again, and
 * UNIX_TIMESTAMP in the session's zone (the site's) makes it the instant the site meant — whatever
 * the server's zone is.
 */
import type { MirrorRows } from '../mirror'
import { byMirrorTable, type MirrorColumnName, type MirrorKind, mirrorColumnsOf, type MirrorTable } from '../mirror/columns'
import type { NexusphpConnection, SourceRow } from './connection'
import type { SourceSchema, SourceTable } from './schema-check'

/** A Laravel TIMESTAMP column → epoch seconds (see above). */
const laravelTimestamp = (col: string) => `UNIX_TIMESTAMP(CONVERT_TZ(${col}, @@session.time_zone, @@global.time_zone))`
/** An instant (epoch seconds, a parameter) as Laravel would have stored it, to compare a TIMESTAMP column with. */
export const laravelTimestampBound = 'CONVERT_TZ(FROM_UNIXTIME(?), @@global.time_zone, @@session.time_zone)'

/** [mirror column, kind, source column, value when the source lacks the column] */
type ColumnSpec = readonly [string, MirrorKind, string, (number | string)?]

interface TableSpec {
  source: SourceTable
  columns: readonly ColumnSpec[]
  /** Fills NOT NULL mirror columns the source left empty. */
  fix?(row: Record<string, unknown>): void
}

/** How a mirror table is read from NexusPHP; its columns are the mirror's (mirror/columns.ts). */
interface SourceOf<T extends MirrorTable> {
  source: SourceTable
  /** Source columns named otherwise than the mirror's. */
  renamed?: Partial<Record<MirrorColumnName<T>, string>>
  /** Values for a source that lacks the column, where the mirror's default would not do. */
  fallbacks?: Partial<Record<MirrorColumnName<T>, number | string>>
  fix?(row: Record<string, unknown>): void
}

const sources: { [T in MirrorTable]: SourceOf<T> } = {
  site_users: {
    source: 'users',
    // A site without classes: everyone is an ordinary user (NexusPHP's UC_USER).
    fallbacks: { class: 1 },
    fix: (r) => void (r.added ??= 0),
  },
  site_teams: { source: 'teams' },
  site_categories: { source: 'categories' },
  // NexusPHP's tags are ordered by priority.
  site_tags: { source: 'tags', renamed: { sort_index: 'priority' } },
  site_torrents: {
    source: 'torrents',
    fix: (r) => void (r.added ??= 0),
  },
  site_torrent_tags: { source: 'torrent_tags' },
  // finishedat: NexusPHP keeps epoch seconds there (0 = not finished); a fork with a DATETIME works too.
  site_peers: {
    source: 'peers',
    fix: (r) => {
      r.last_action ??= 0
      r.started ??= r.last_action
      r.prev_action ??= r.last_action
    },
  },
  site_snatched: {
    source: 'snatched',
    fix: (r) => {
      r.startdat ??= r.last_action ?? 0
      r.last_action ??= r.startdat
    },
  },
  site_claims: {
    source: 'claims',
    fix: (r) => {
      r.created_at ??= r.updated_at ?? 0
      r.updated_at ??= r.created_at
    },
  },
}

function tableSpec<T extends MirrorTable>(table: T): TableSpec {
  const { source, renamed, fallbacks, fix }: SourceOf<T> = sources[table]
  const columns = mirrorColumnsOf(table).map(({ name, kind, default: fallback }): ColumnSpec => {
    const column = name as MirrorColumnName<T>
    return [name, kind, renamed?.[column] ?? name, fallbacks?.[column] ?? fallback]
  })
  return { source, columns, fix }
}

export const tableSpecs = byMirrorTable(tableSpec)

const textTypes = new Set(['enum', 'set', 'char', 'varchar', 'text', 'tinytext', 'mediumtext', 'longtext', 'binary', 'varbinary'])
const timeTypes = new Set(['datetime', 'timestamp', 'date'])

const quote = (column: string) => `\`${column.replace(/`/g, '``')}\``

function literal(value: number | string | undefined): string {
  if (value === undefined) return 'NULL'
  return typeof value === 'number' ? String(value) : `'${value.replace(/'/g, "''")}'`
}

/** The SELECT list of a mirror table against this source's schema (aliases are the mirror's names). */
export function selectList(table: MirrorTable, schema: SourceSchema): string {
  const spec = tableSpecs[table]
  const columns = schema[spec.source]
  return spec.columns
    .map(([name, kind, source, fallback]) => {
      const type = columns.get(source)
      const col = quote(source)
      let expr: string
      if (type === undefined) expr = kind === 'yesno' ? String(fallback ?? 0) : literal(fallback)
      else if (kind === 'hex') expr = `LOWER(HEX(${col}))`
      else if (kind === 'yesno') expr = textTypes.has(type) ? `(${col} = 'yes')` : `(${col} <> 0)`
      else if (kind === 'time')
        expr = type === 'timestamp' ? laravelTimestamp(col) : timeTypes.has(type) ? `UNIX_TIMESTAMP(${col})` : `NULLIF(${col}, 0)`
      else if (kind === 'ref') expr = `NULLIF(${col}, 0)`
      else expr = col
      return `${expr} AS ${quote(name)}`
    })
    .join(', ')
}

/** A source integer as a mirror integer: big values arrive as strings; past 2^53 they are clamped. */
function toInt(value: unknown, fallback: number): number {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value // the usual case: mysql2's own number
  if (value === null || value === undefined || value === '') return fallback
  const n = Math.trunc(Number(value))
  if (!Number.isFinite(n)) return fallback
  return Math.max(Number.MIN_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, n))
}

/**
 * Turns the answers of a `selectList` query into mirror rows in place: the query's own row objects
 * already carry exactly the mirror's column names (the aliases), so no second object is built per row.
 */
export function toMirrorRows<T extends MirrorTable>(table: T, rows: SourceRow[]): MirrorRows[T][] {
  const spec = tableSpecs[table]
  const columns = spec.columns
  for (const row of rows) {
    for (let i = 0; i < columns.length; i++) {
      const [name, kind, , fallback] = columns[i]
      const value = row[name]
      switch (kind) {
        case 'int':
          row[name] = toInt(value, typeof fallback === 'number' ? fallback : 0)
          break
        case 'ref':
          row[name] = value === null || value === undefined ? null : toInt(value, 0) || null
          break
        case 'yesno':
          row[name] = value === null || value === undefined ? (fallback === 1 ? 1 : 0) : Number(value) ? 1 : 0
          break
        case 'time':
          row[name] = value === null || value === undefined ? null : Math.round(Number(value) * 1000) || null
          break
        case 'hex':
          row[name] = value === null || value === undefined ? '' : String(value).toLowerCase()
          break
        default:
          row[name] = value === null || value === undefined ? (typeof fallback === 'string' ? fallback : '') : String(value)
      }
    }
    spec.fix?.(row)
  }
  return rows as MirrorRows[T][]
}

/** Reads mirror rows of `table` from the source: `SELECT <mirror columns> FROM <table> <tail>`. */
export async function readMirrorRows<T extends MirrorTable>(
  connection: NexusphpConnection,
  schema: SourceSchema,
  table: T,
  tail: string,
  values: unknown[] = [],
): Promise<MirrorRows[T][]> {
  const source = tableSpecs[table].source
  const rows = await connection.query(`SELECT ${selectList(table, schema)} FROM ${quote(source)} ${tail}`, values, source)
  return toMirrorRows(table, rows)
}

/** An SQL list of integers (ids and uids are ours or the source's own integers, never user text). */
export function intList(values: readonly number[]): string {
  return values.map((v) => String(Math.trunc(v))).join(', ')
}
