/**
 * What the site's schema offers, read once per sync from information_schema (which shows a
 * SELECT-only user exactly the tables it may read). NexusPHP versions and forks differ: extra
 * columns are ignored, optional ones missing get a default, and a missing table or required
 * column fails the sync with a message that names it.
 */
import type { NexusphpConnection } from './connection'
import { NexusphpError } from './connection'

export const sourceTables = ['users', 'teams', 'categories', 'tags', 'torrents', 'torrent_tags', 'peers', 'snatched', 'claims'] as const
export type SourceTable = (typeof sourceTables)[number]

/**
 * Columns the connector cannot do without: the keys, and every column a status, an official label or a wage is made
 * of — read as its default, a renamed or ungranted seed time would pay every member 0 hours without a word. Every
 * NexusPHP version has them all; everything else read has a default.
 */
const required: Record<SourceTable, readonly string[]> = {
  users: ['id', 'username', 'enabled'],
  teams: ['id', 'name'],
  categories: ['id', 'name'],
  tags: ['id', 'name'],
  torrents: ['id', 'info_hash', 'name', 'size', 'owner', 'team', 'banned', 'seeders'],
  torrent_tags: ['id', 'torrent_id', 'tag_id'],
  peers: ['id', 'torrent', 'peer_id', 'userid', 'seeder', 'to_go', 'last_action'],
  snatched: ['id', 'torrentid', 'userid', 'finished', 'last_action', 'to_go', 'seedtime', 'uploaded'],
  claims: ['id', 'uid', 'torrent_id', 'seed_time_begin', 'uploaded_begin', 'created_at'],
}

type SourceColumns = Record<SourceTable, Map<string, string>>

/**
 * Column name → its data_type (lower case: 'enum', 'datetime', 'int', 'binary', …), per table; and how the
 * site's settings make the reader take a column (set by the sync, `settleTorrentReview` in sync/torrent-refresh.ts).
 */
export type SourceSchema = SourceColumns & {
  /**
   * The site's announce refuses torrents its review has not approved (`torrents.approval_status` ≠ 1 while
   * the setting `torrent.approval_status_none_visible` is 'no'): the reader takes them as banned (reader.ts).
   */
  refusesUnapproved?: boolean
}

export async function readSourceSchema(connection: NexusphpConnection): Promise<SourceSchema> {
  const rows = await connection.query<{ t: string; c: string; d: string }>(
    `SELECT TABLE_NAME AS t, COLUMN_NAME AS c, DATA_TYPE AS d FROM information_schema.COLUMNS
      WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (${sourceTables.map(() => '?').join(', ')})`,
    [...sourceTables],
    'information_schema',
  )
  const schema: SourceSchema = Object.fromEntries(sourceTables.map((t) => [t, new Map<string, string>()])) as SourceColumns
  for (const row of rows) schema[String(row.t).toLowerCase() as SourceTable]?.set(String(row.c).toLowerCase(), String(row.d).toLowerCase())
  const missingTables = sourceTables.filter((t) => schema[t].size === 0)
  if (missingTables.length) {
    throw new NexusphpError(`缺少数据表 ${missingTables.join('、')}（或没有读取它们的权限：GRANT SELECT，见 README）`)
  }
  const missingColumns = sourceTables.flatMap((t) => required[t].filter((c) => !schema[t].has(c)).map((c) => `${t}.${c}`))
  if (missingColumns.length)
    throw new NexusphpError(
      `NexusPHP 数据表缺少列 ${missingColumns.join('、')}（或读取账号没有这些列的权限：GRANT SELECT 整张表，见 README）`,
    )
  return schema
}

/**
 * Names of the indexes that lead with the member column of peers, snatched and claims (NexusPHP's
 * `userid`, claims' unique (uid, torrent_id); forks name them otherwise). The members' scans tell
 * MariaDB to ignore them (sync/member-scan.ts).
 */
export type MemberIndexes = Record<'peers' | 'snatched' | 'claims', string[]>

export async function readMemberIndexes(connection: NexusphpConnection): Promise<MemberIndexes> {
  const rows = await connection.query<{ t: string; i: string }>(
    `SELECT DISTINCT TABLE_NAME AS t, INDEX_NAME AS i FROM information_schema.STATISTICS
      WHERE TABLE_SCHEMA = DATABASE() AND SEQ_IN_INDEX = 1
        AND ((TABLE_NAME IN ('peers', 'snatched') AND COLUMN_NAME = 'userid') OR (TABLE_NAME = 'claims' AND COLUMN_NAME = 'uid'))
      ORDER BY TABLE_NAME, INDEX_NAME`,
    [],
    'information_schema',
  )
  const indexes: MemberIndexes = { peers: [], snatched: [], claims: [] }
  for (const row of rows) indexes[String(row.t).toLowerCase() as keyof MemberIndexes]?.push(String(row.i))
  return indexes
}

/**
 * How the site's tables lock. A v1.6 install keeps users, torrents and snatched in
 * MyISAM and peers in MEMORY: table-level locks, so the tracker's UPDATE of a table waits for every
 * read of it that is running — each of ours must be short. MEMORY's keys are hashes besides: its ids
 * cannot be read by range, only looked up.
 */
export interface SourceEngines {
  /** Tables whose reads block writers (any engine but InnoDB's kind). */
  locking: ReadonlySet<SourceTable>
  /** Tables whose primary key is a hash (no id ranges). */
  hashKeyed: ReadonlySet<SourceTable>
}

const rowLockingEngines = new Set(['innodb', 'xtradb', 'rocksdb', 'tokudb'])

/**
 * Two plain statements, not one: MariaDB 10.11 crashed (signal 11, create_tmp_table_for_schema) on a correlated
 * subquery of information_schema.STATISTICS inside a query of information_schema.TABLES, twice in an hour on a
 * server busy with other databases — a crash of the site's own database server, the tracker's with it.
 */
export async function readSourceEngines(connection: NexusphpConnection): Promise<SourceEngines> {
  const names = sourceTables.map(() => '?').join(', ')
  const tables = await connection.query<{ t: string; e: string | null }>(
    `SELECT TABLE_NAME AS t, ENGINE AS e FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (${names})`,
    [...sourceTables],
    'information_schema',
  )
  const keys = await connection.query<{ t: string; k: string | null }>(
    `SELECT TABLE_NAME AS t, INDEX_TYPE AS k FROM information_schema.STATISTICS
      WHERE TABLE_SCHEMA = DATABASE() AND INDEX_NAME = 'PRIMARY' AND TABLE_NAME IN (${names})`,
    [...sourceTables],
    'information_schema',
  )
  const locking = new Set<SourceTable>()
  const hashKeyed = new Set<SourceTable>()
  for (const row of tables) {
    // An engine we cannot name (a view, a fork's) counts as locking: short reads are safe everywhere.
    if (!rowLockingEngines.has(String(row.e ?? '').toLowerCase())) locking.add(String(row.t).toLowerCase() as SourceTable)
  }
  for (const row of keys) if (String(row.k ?? '').toUpperCase() === 'HASH') hashKeyed.add(String(row.t).toLowerCase() as SourceTable)
  return { locking, hashKeyed }
}
