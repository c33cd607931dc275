/**
 * The mirror's bulk path, for rows that cannot be in it yet (the first import, a new member's
 * backfill), and how the derivation learns of them without a queue row per row.
 */
import { type Kysely, sql } from 'kysely'
import { type BulkColumns, bulkInsert } from '../../db/bulk'
import type { AppDatabase } from '../../db/database'
import type { DB } from '../../db/schema'
import { inIntegers } from '../../db/sql-fragments'
import { type MirrorTable, mirrorColumnsOf } from './columns'
import { pairColumns } from './queue-affected'
import { type AnyRow, checkedArray, dedupe, type MirrorRows, uniqueKeys } from './rows'

/**
 * What makes the derivation see rows written by `insertMirrorFresh` without a queue row each:
 * 'full pass' — the next pass judges everything (`nextPassIsFull`); or members (site uids) whose
 * records are all queued here, one queue row per member.
 */
export type FreshCover = 'full pass' | { siteUids: readonly number[] }

/**
 * The bulk path for rows that cannot be in the mirror yet — the first import, a new member's
 * backfill. SQLite: one prepared statement reused for every row (db/bulk.ts); PostgreSQL: `unnest` arrays
 * with `on conflict (id)` — either way instead of the upsert's read–compare–write statements, and
 * nothing queued per row (see `FreshCover`). Should a row be
 * there after all (a torrent both official and a member's upload, a peer the site re-created under
 * a new id), it is replaced by id and by unique key, as the upsert would. SQLite's replace does not
 * fire delete triggers: site_torrents (its name FTS) only while its triggers are dropped
 * (withDeferredIndexes, which rebuilds the FTS).
 */
export async function insertMirrorFresh<T extends MirrorTable>(
  database: AppDatabase,
  trx: Kysely<DB>,
  table: T,
  rows: readonly MirrorRows[T][],
  cover: FreshCover,
  options: { keyDeferred?: boolean } = {},
): Promise<number> {
  let written = 0
  if (rows.length) {
    const columns = mirrorColumnsOf(table)
    // SQLite: no dedupe — `insert or replace` row after row already lets the last row win for an id or a
    // key. PostgreSQL: one statement may not meet a row twice, so the batch is deduplicated first, and
    // rows holding an incoming unique key under another id (re-created at the site) go first.
    const all = database.dialect === 'sqlite' ? (rows as unknown as readonly AnyRow[]) : dedupe(table, rows as unknown as readonly AnyRow[])
    // One pass: each row is checked while its array (the statement's column order) is built.
    const arrays = all.map((row) => checkedArray(table, columns, row))
    const bulkColumns: BulkColumns = columns.map(({ name, sql }) => [name, sql === 'text' ? 'text' : 'bigint'] as const)
    const key = uniqueKeys[table]
    // (`keyDeferred`: the table's unique key is dropped for a bulk load — db/bulk.ts keeps the newest row
    // of each key when it rebuilds it — so there is nothing to look them up by, and nothing to refuse them.)
    if (database.dialect === 'postgres' && key && !options.keyDeferred) await deleteKeyHolders(trx, table, key, all)
    if (cover !== 'full pass') await queueDisplacedPairs(trx, table, all, cover.siteUids)
    await bulkInsert(database, table, bulkColumns, arrays, trx, { replace: true, checked: true })
    written = all.length
  }
  if (cover !== 'full pass' && cover.siteUids.length) {
    await sql`insert into derive_queue (user_id, torrent_id) select id, cast(null as integer) from users where ${inIntegers(sql.ref('site_uid'), cover.siteUids)}`.execute(
      trx,
    )
  }
  return written
}

/**
 * Queues the records of rows the bulk path is about to replace by id — another member's row under an id the site gave
 * again (a v1.6 MEMORY peers table starts its ids over at 1 after every MySQL restart, and a keeper's stale peer holds
 * the low ones): that member's record is judged again without it, as the upsert queues a row's old pair. (A unique key
 * of a pair table holds its user, so a row replaced by key is the covered member's own.)
 */
async function queueDisplacedPairs(
  trx: Kysely<DB>,
  table: MirrorTable,
  rows: readonly AnyRow[],
  /** Queued whole already: their own rows replaced need nothing more. */
  covered: readonly number[],
): Promise<void> {
  const pair = pairColumns[table]
  if (!pair) return
  const [uid, torrent] = pair
  const ids = rows.map((r) => Number(r.id))
  const others = covered.length ? sql`and not ${inIntegers(sql.ref(`x.${uid}`), covered)}` : sql``
  for (let i = 0; i < ids.length; i += 2_000) {
    await sql`insert into derive_queue (user_id, torrent_id)
      select u.id, x.${sql.ref(torrent)} from ${sql.table(table)} x join users u on u.site_uid = x.${sql.ref(uid)}
      where ${inIntegers(sql.ref('x.id'), ids.slice(i, i + 2_000))} ${others}`.execute(trx)
  }
}

/** PostgreSQL bulk path: deletes rows that hold one of the incoming rows' unique keys under another id. */
async function deleteKeyHolders(trx: Kysely<DB>, table: MirrorTable, key: readonly string[], rows: readonly AnyRow[]): Promise<void> {
  const type = (column: string) =>
    mirrorColumnsOf(table).find(({ name }) => name === column)?.sql === 'text' ? sql`text[]` : sql`bigint[]`
  const arrays = key.map((k) => sql`${rows.map((r) => r[k])}::${type(k)}`)
  const names = key.map((_, i) => sql.raw(`k${i}`))
  await sql`delete from ${sql.table(table)} x using unnest(${rows.map((r) => r.id)}::bigint[], ${sql.join(arrays)}) as v(id, ${sql.join(names)})
    where ${sql.join(
      key.map((k, i) => sql`x.${sql.ref(k)} = v.${names[i]}`),
      sql` and `,
    )} and x.id <> v.id`.execute(trx)
}

/** Whether the next derivation pass judges everything (never derived, or derived under other rules). */
export async function nextPassIsFull(db: Kysely<DB>, rulesVersion: number): Promise<boolean> {
  const state = await db.selectFrom('sync_state').select(['derived_at', 'derived_rules_version']).where('id', '=', 1).executeTakeFirst()
  return !state || state.derived_at === null || state.derived_rules_version !== rulesVersion
}
