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
/**
 * A DATETIME column → epoch seconds. Servers whose UNIX_TIMESTAMP ends in 2038 (MariaDB before 11.5,
 * MySQL before 8.0.28) answer NULL past it, as for a zero date: such a time (a tracker clock gone wrong)
 * reads as 2100-01-01 instead, so that it is noted as a time past the site's clock (checkSourceRows).
 */
const datetimeSeconds = (col: string) => `COALESCE(UNIX_TIMESTAMP(${col}), IF(${col} >= '2038-01-19', ${FAR_FUTURE_SECONDS}, NULL))`
const FAR_FUTURE_SECONDS = 4_102_444_800

/** An instant (epoch seconds, a parameter) as Laravel would have stored it, to compare a TIMESTAMP column with. */
export const laravelTimestampBound = 'CONVERT_TZ(FROM_UNIXTIME(?), @@global.time_zone, @@session.time_zone)'

/** [mirror column, kind, source column, value when the source lacks the column] */
type ColumnSpec = readonly [string, MirrorKind, string, (number | string)?]

interface TableSpec {
  source: SourceTable
  columns: readonly ColumnSpec[]
  /** Mirror columns read by an expression of their own instead of the source column of their name (null: the column). */
  computed?: Partial<Record<string, (schema: SourceSchema) => string | null>>
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
  /** Columns that are what the site does with its columns, not one of them (null: the column after all). */
  computed?: Partial<Record<MirrorColumnName<T>, (schema: SourceSchema) => string | null>>
  fix?(row: Record<string, unknown>): void
}

/** A yes/no source column as 1/0: NexusPHP's enum('yes','no'), or a fork's integer flag. */
const yesNo = (col: string, type: string) => (textTypes.has(type) ? `(${col} = 'yes')` : `(${col} <> 0)`)

/**
 * `banned` as the tracker has it: a torrent announce refuses. NexusPHP's announce refuses a banned torrent
 * ("torrent banned") and, while the site hides unreviewed torrents (`torrent.approval_status_none_visible` =
 * 'no'), one whose review has not approved it — `approval_status` ≠ 1, not reviewed (0) or denied (2; a denial
 * bans it too) — ("torrent review not approved"; announce.php, TrackerRepository::checkTorrent). Either way
 * nobody can seed it, so the mirror takes it as banned (docs/domain.md). Without the column or the rule: the column.
 */
function torrentRefused(schema: SourceSchema): string | null {
  const columns = schema.torrents
  if (!schema.refusesUnapproved || !columns.has('approval_status')) return null
  // PHP's `!=`: NULL (a fork's nullable column) is not 1 either.
  const unapproved = `NOT (${quote('approval_status')} <=> 1)`
  const banned = columns.get('banned')
  return banned === undefined ? `(${unapproved})` : `(${yesNo(quote('banned'), banned)} OR ${unapproved})`
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
    computed: { banned: torrentRefused },
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
      r.last_action ??= r.startdat ?? 0
      // A zero or NULL startdat (v1.6 trackers, old imports) is unknown: 0, as old as can be. Never the
      // last announce — a snatch taken as begun that recently is counted from 0 by the wages, its whole history paid.
      r.startdat ??= 0
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
  const { source, renamed, fallbacks, computed, fix }: SourceOf<T> = sources[table]
  const columns = mirrorColumnsOf(table).map(({ name, kind, default: fallback }): ColumnSpec => {
    const column = name as MirrorColumnName<T>
    return [name, kind, renamed?.[column] ?? name, fallbacks?.[column] ?? fallback]
  })
  return { source, columns, computed, fix }
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
      const computed = spec.computed?.[name]?.(schema) ?? null
      let expr: string
      if (computed !== null) expr = computed
      else if (type === undefined) expr = kind === 'yesno' ? String(fallback ?? 0) : literal(fallback)
      else if (kind === 'hex') expr = `LOWER(HEX(${col}))`
      else if (kind === 'yesno') expr = yesNo(col, type)
      else if (kind === 'time')
        expr = type === 'timestamp' ? laravelTimestamp(col) : timeTypes.has(type) ? datetimeSeconds(col) : `NULLIF(${col}, 0)`
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

/**
 * Values no real row can mean, found in the rows of a sync (what odd-but-real sites hold: a tracker
 * whose clock ran years ahead, a fork's signed counters gone negative, an unsigned column saturated
 * at 2^64−1 by MyISAM's non-strict mode, a NUL in a name written by a page without SET NAMES).
 */
export interface SourceRowLimits {
  /** Epoch ms: a time later than this is not believed (no date, as a zero date is). */
  latest: number
}

/** Counters (bytes, seconds, counts): never below 0, never above `MAX_COUNTER`. */
const counterColumns = new Set([
  'uploaded',
  'downloaded',
  'to_go',
  'size',
  'seedtime',
  'leechtime',
  'seed_time_begin',
  'uploaded_begin',
  'seeders',
  'leechers',
  'times_completed',
])
/**
 * 1 PiB: no member uploads that much of one torrent; a larger value is a wrapped or saturated
 * counter. (Sums of thousands of them still fit the derivation's and the wages' 64-bit columns.)
 */
export const MAX_COUNTER = 2 ** 50

/**
 * 16 TiB: no torrent is that large. Sizes are summed over every torrent (the count cube's seeding size, the
 * statistics): at 1 PiB each, 8,192 torrents already overflowed those 64-bit sums and stopped every derivation;
 * at 16 TiB it takes 524,288 of them.
 */
export const MAX_TORRENT_SIZE = 2 ** 44

/** The most a counter column keeps. */
const counterLimit = (name: string) => (name === 'size' ? MAX_TORRENT_SIZE : MAX_COUNTER)

/** What was done to a value, as /data-sync says it (`column`: the source's `table.column`). */
export const sourceRowNotes = {
  future: (column: string) => `站点数据异常：${column} 晚于站点时钟一天以上（tracker 时钟有误），已按无时间处理`,
  negative: (column: string) => `站点数据异常：${column} 为负数，已按 0 处理`,
  huge: (column: string, limit = '1 PiB') => `站点数据异常：${column} 超出范围（大于 ${limit}），已截断为 ${limit}`,
  nul: (column: string) => `站点数据异常：${column} 含 NUL 字符（数据库无法保存），已删去该字符`,
} as const

/**
 * Makes mirror rows of `table` (from `toMirrorRows`) safe to store and to derive from, in place: a
 * time past `limits.latest` becomes no time (its NOT NULL columns filled from their neighbours as
 * for a zero date), counters are kept within 0…MAX_COUNTER (sizes 0…MAX_TORRENT_SIZE), NUL characters leave text (PostgreSQL
 * refuses them). Every value changed is told to `note` (its message, one call per row and column).
 */
export function checkSourceRows<T extends MirrorTable>(
  table: T,
  rows: readonly MirrorRows[T][],
  limits: SourceRowLimits,
  note: (message: string) => void,
): void {
  const spec = tableSpecs[table]
  const source = (column: string) => `${spec.source}.${column}`
  for (const mirrorRow of rows) {
    const row = mirrorRow as Record<string, unknown>
    let refill = false
    for (const [name, kind, column] of spec.columns) {
      const value = row[name]
      if (kind === 'time') {
        if (typeof value === 'number' && value > limits.latest) {
          row[name] = null
          refill = true
          note(sourceRowNotes.future(source(column)))
        }
      } else if (kind === 'int') {
        if (typeof value !== 'number' || !counterColumns.has(name)) continue
        if (value < 0) {
          row[name] = 0
          note(sourceRowNotes.negative(source(column)))
        } else if (value > counterLimit(name)) {
          row[name] = counterLimit(name)
          note(sourceRowNotes.huge(source(column), name === 'size' ? '16 TiB' : '1 PiB'))
        }
      } else if (kind === 'text' && typeof value === 'string' && value.includes('\u0000')) {
        row[name] = value.replaceAll('\u0000', '')
        note(sourceRowNotes.nul(source(column)))
      }
    }
    if (refill) spec.fix?.(row)
  }
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
