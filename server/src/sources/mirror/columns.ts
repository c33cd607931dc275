/**
 * The one list of the mirror's tables and columns (the site_* tables a sync fills). Everything else
 * that names them derives from here: the Kysely types (db/schema.ts), the mirror's writer (its
 * statements and row checks), the NexusPHP reader's SELECT lists, the demo generator's bulk columns
 * and the push-ingest format's field list. The migrations that created the tables stay as written
 * (they are history); columns.test.ts checks that the migrated tables agree with this list.
 *
 * Table and column names are NexusPHP's, so that a connector maps them one to one, and ids are the
 * site's own. Conventions: times are epoch ms, `enum('yes','no')` columns are 1/0, binary hashes are
 * lower-case hex.
 */
import type { Generated } from 'kysely'

/** The SQL type the migrations gave a column (SQLite and PostgreSQL alike). */
export type MirrorSqlType = 'integer' | 'bigint' | 'smallint' | 'text'

/**
 * What a column's value means, which decides how it is checked and converted:
 * - int: an integer (ids, counters, bytes, seconds, the site's uids);
 * - ref: the id of another row, null for none (a source's 0 means none too);
 * - yesno: NexusPHP's enum('yes','no'), kept as 1/0;
 * - time: an instant, in epoch milliseconds;
 * - hex: a binary hash, as lower-case hex;
 * - text: any other text.
 */
export type MirrorKind = 'int' | 'ref' | 'yesno' | 'time' | 'hex' | 'text'

export interface MirrorColumn {
  readonly name: string
  readonly sql: MirrorSqlType
  readonly kind: MirrorKind
  /** Whether the column may hold NULL. */
  readonly nullable?: true
  /** The column's default: a row may leave the column out when it is inserted. */
  readonly default?: number | string
}

export interface MirrorTableDefinition {
  /** In the migrations' order, which is also the order of statements and bulk rows. */
  readonly columns: readonly MirrorColumn[]
  /**
   * A unique key besides `id`. The site may delete such a row and create it again under a new id,
   * so a row holding the key under another id is replaced, never a conflict.
   */
  readonly uniqueKey?: readonly string[]
}

/** Teams, categories and tags: a name and a position in the site's lists. */
const named = [
  { name: 'id', sql: 'integer', kind: 'int' },
  { name: 'name', sql: 'text', kind: 'text' },
  { name: 'sort_index', sql: 'integer', kind: 'int', default: 0 },
] as const

export const mirrorSchema = {
  site_users: {
    columns: [
      { name: 'id', sql: 'integer', kind: 'int' },
      { name: 'username', sql: 'text', kind: 'text' },
      { name: 'class', sql: 'integer', kind: 'int', default: 0 },
      { name: 'enabled', sql: 'smallint', kind: 'yesno', default: 1 },
      { name: 'status', sql: 'text', kind: 'text', default: 'confirmed' },
      { name: 'added', sql: 'bigint', kind: 'time' },
      { name: 'last_access', sql: 'bigint', kind: 'time', nullable: true },
    ],
  },
  site_teams: { columns: named },
  site_categories: { columns: named },
  site_tags: { columns: named },
  site_torrents: {
    columns: [
      { name: 'id', sql: 'integer', kind: 'int' },
      { name: 'info_hash', sql: 'text', kind: 'hex' },
      { name: 'name', sql: 'text', kind: 'text' },
      { name: 'size', sql: 'bigint', kind: 'int' },
      { name: 'category', sql: 'integer', kind: 'ref', nullable: true },
      { name: 'team', sql: 'integer', kind: 'ref', nullable: true },
      { name: 'added', sql: 'bigint', kind: 'time' },
      { name: 'seeders', sql: 'integer', kind: 'int', default: 0 },
      { name: 'leechers', sql: 'integer', kind: 'int', default: 0 },
      { name: 'times_completed', sql: 'integer', kind: 'int', default: 0 },
      // The uploader's site uid, 0 for none.
      { name: 'owner', sql: 'integer', kind: 'int', default: 0 },
      { name: 'visible', sql: 'smallint', kind: 'yesno', default: 1 },
      // Announce refuses the torrent: banned on the site, or (NexusPHP 1.7+, where the site hides unreviewed
      // torrents) not approved by its review — nobody can seed it either way (nexusphp/reader.ts).
      { name: 'banned', sql: 'smallint', kind: 'yesno', default: 0 },
    ],
  },
  site_torrent_tags: {
    columns: [
      { name: 'id', sql: 'integer', kind: 'int' },
      { name: 'torrent_id', sql: 'integer', kind: 'int' },
      { name: 'tag_id', sql: 'integer', kind: 'int' },
    ],
    uniqueKey: ['torrent_id', 'tag_id'],
  },
  site_peers: {
    columns: [
      { name: 'id', sql: 'bigint', kind: 'int' },
      { name: 'torrent', sql: 'integer', kind: 'int' },
      { name: 'peer_id', sql: 'text', kind: 'hex' },
      { name: 'ip', sql: 'text', kind: 'text', default: '' },
      { name: 'port', sql: 'integer', kind: 'int', default: 0 },
      { name: 'uploaded', sql: 'bigint', kind: 'int', default: 0 },
      { name: 'downloaded', sql: 'bigint', kind: 'int', default: 0 },
      // Bytes left to download.
      { name: 'to_go', sql: 'bigint', kind: 'int', default: 0 },
      { name: 'seeder', sql: 'smallint', kind: 'yesno', default: 0 },
      { name: 'started', sql: 'bigint', kind: 'time' },
      { name: 'last_action', sql: 'bigint', kind: 'time' },
      { name: 'prev_action', sql: 'bigint', kind: 'time' },
      { name: 'connectable', sql: 'smallint', kind: 'yesno', default: 1 },
      { name: 'userid', sql: 'integer', kind: 'int' },
      { name: 'agent', sql: 'text', kind: 'text', default: '' },
      { name: 'finishedat', sql: 'bigint', kind: 'time', nullable: true },
    ],
    // NexusPHP's own key since its 2023-04 migration: two members may announce one peer_id on one
    // torrent, and both are kept.
    uniqueKey: ['torrent', 'peer_id', 'userid'],
  },
  site_snatched: {
    columns: [
      { name: 'id', sql: 'bigint', kind: 'int' },
      { name: 'torrentid', sql: 'integer', kind: 'int' },
      { name: 'userid', sql: 'integer', kind: 'int' },
      { name: 'ip', sql: 'text', kind: 'text', default: '' },
      { name: 'port', sql: 'integer', kind: 'int', default: 0 },
      { name: 'uploaded', sql: 'bigint', kind: 'int', default: 0 },
      { name: 'downloaded', sql: 'bigint', kind: 'int', default: 0 },
      { name: 'to_go', sql: 'bigint', kind: 'int', default: 0 },
      // Seconds.
      { name: 'seedtime', sql: 'bigint', kind: 'int', default: 0 },
      { name: 'leechtime', sql: 'bigint', kind: 'int', default: 0 },
      { name: 'last_action', sql: 'bigint', kind: 'time' },
      { name: 'startdat', sql: 'bigint', kind: 'time' },
      { name: 'completedat', sql: 'bigint', kind: 'time', nullable: true },
      { name: 'finished', sql: 'smallint', kind: 'yesno', default: 0 },
    ],
    uniqueKey: ['userid', 'torrentid'],
  },
  site_claims: {
    columns: [
      { name: 'id', sql: 'bigint', kind: 'int' },
      { name: 'uid', sql: 'integer', kind: 'int' },
      { name: 'torrent_id', sql: 'integer', kind: 'int' },
      { name: 'snatched_id', sql: 'bigint', kind: 'ref', nullable: true },
      { name: 'seed_time_begin', sql: 'bigint', kind: 'int', default: 0 },
      { name: 'uploaded_begin', sql: 'bigint', kind: 'int', default: 0 },
      { name: 'last_settle_at', sql: 'bigint', kind: 'time', nullable: true },
      { name: 'created_at', sql: 'bigint', kind: 'time' },
      { name: 'updated_at', sql: 'bigint', kind: 'time' },
    ],
    uniqueKey: ['uid', 'torrent_id'],
  },
} as const satisfies Record<string, MirrorTableDefinition>

export type MirrorTable = keyof typeof mirrorSchema

/** The mirror's tables, in the order above (what others refer to first). */
export const mirrorTables = Object.keys(mirrorSchema) as MirrorTable[]

type ColumnOf<T extends MirrorTable> = (typeof mirrorSchema)[T]['columns'][number]
export type MirrorColumnName<T extends MirrorTable> = ColumnOf<T>['name']

/** A column's value: 1/0 for yes/no, text for text, else a number (epoch ms for times). */
type ValueOf<C extends MirrorColumn> = C['kind'] extends 'yesno' ? 0 | 1 : C['sql'] extends 'text' ? string : number
/** As Kysely sees the column: nullable, or optional on insert when it has a default. */
type CellOf<C extends MirrorColumn> = C extends { nullable: true }
  ? ValueOf<C> | null
  : C extends { default: number | string }
    ? Generated<ValueOf<C>>
    : ValueOf<C>

/** The Kysely table type of a mirror table (db/schema.ts). */
export type MirrorTableType<T extends MirrorTable> = { [C in ColumnOf<T> as C['name']]: CellOf<C> }

export function mirrorColumnsOf(table: MirrorTable): readonly MirrorColumn[] {
  return mirrorSchema[table].columns
}

export function mirrorUniqueKey(table: MirrorTable): readonly string[] | undefined {
  const definition: MirrorTableDefinition = mirrorSchema[table]
  return definition.uniqueKey
}

/** One value per mirror table. */
export function byMirrorTable<V>(value: (table: MirrorTable) => V): Record<MirrorTable, V> {
  return Object.fromEntries(mirrorTables.map((table) => [table, value(table)])) as Record<MirrorTable, V>
}
