/**
 * The one way a source writes the mirror of the site (site_* tables, migration 0002): upserts and
 * deletes by the site's own `id`, with the derivation queued in the same transaction (derive/queue.ts)
 * so that a committed mirror change is never missed by the next pass.
 *
 * Rows are in mirror terms (epoch ms, 0/1 for yes/no, lower-case hex hashes). Unique keys besides
 * `id` (peers (torrent, peer_id, userid), snatched (userid, torrentid), claims (uid, torrent_id), torrent
 * tags (torrent_id, tag_id)): the site may delete a row and create it again under a new id, so a row
 * holding such a key under another id is replaced, never a conflict.
 */
import { CompiledQuery, type Kysely, type RawBuilder, type Selectable, sql } from 'kysely'
import { type BulkColumns, bulkInsert } from '../db/bulk'
import type { AppDatabase } from '../db/database'
import type { DB } from '../db/schema'
import { inIntegers } from '../db/sql-fragments'
import { queueTorrents } from '../derive/queue'
import { byMirrorTable, type MirrorColumn, mirrorColumnsOf, mirrorTables, type MirrorTable, mirrorUniqueKey } from './mirror/columns'

/** A full row of each mirror table, as the mirror stores it. */
export type MirrorRows = { [T in MirrorTable]: Selectable<DB[T]> }

export { mirrorTables, type MirrorTable }

/** Unique keys besides `id`, by table (see `MirrorTableDefinition.uniqueKey`). */
export const uniqueKeys: Partial<Record<MirrorTable, readonly string[]>> = byMirrorTable(mirrorUniqueKey)

/** Tables whose rows tie a site user to a torrent: [site uid column, torrent column]. */
const pairColumns: Partial<Record<MirrorTable, readonly [string, string]>> = {
  site_peers: ['userid', 'torrent'],
  site_snatched: ['userid', 'torrentid'],
  site_claims: ['uid', 'torrent_id'],
}

/** Parameters per statement, below SQLite's 32,766 and PostgreSQL's 65,535. */
const PARAMS_PER_STATEMENT = 16_000

type AnyRow = Record<string, unknown>
type Pair = { uid: number; torrent: number }

/**
 * Inserts or updates rows by `id` (rows equal to the stored ones are left alone and queue nothing),
 * and queues what the change can affect: records of (member, torrent) for peers, snatches and claims;
 * torrents for torrents and their tags; the torrents of a team or tag whose name changed (official by
 * rule goes by name). Returns the rows written. Runs in `db` when it is a transaction, else in one.
 */
export async function upsertMirror<T extends MirrorTable>(db: Kysely<DB>, table: T, rows: readonly MirrorRows[T][]): Promise<number> {
  if (rows.length === 0) return 0
  const columns = mirrorColumnsOf(table)
  const unique = dedupe(table, rows as unknown as readonly AnyRow[])
  for (const row of unique) checkRow(table, columns, row)
  return inTransaction(db, async (trx) => {
    const size = Math.max(1, Math.floor(PARAMS_PER_STATEMENT / columns.length))
    let written = 0
    for (let i = 0; i < unique.length; i += size) written += await upsertChunk(trx, table, unique.slice(i, i + size))
    return written
  })
}

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

/** Deletes rows by `id`, queueing what they affected first. Returns the rows deleted. */
export async function deleteMirror(db: Kysely<DB>, table: MirrorTable, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0
  for (const id of ids) if (!Number.isSafeInteger(id)) throw new Error(`${table}: id is not an integer: ${String(id)}`)
  return inTransaction(db, async (trx) => {
    let deleted = 0
    for (let i = 0; i < ids.length; i += 5_000) deleted += await deleteChunk(trx, table, ids.slice(i, i + 5_000))
    return deleted
  })
}

async function inTransaction<R>(db: Kysely<DB>, work: (trx: Kysely<DB>) => Promise<R>): Promise<R> {
  return db.isTransaction ? work(db) : db.transaction().execute(work)
}

/** Last row wins for a repeated id, and for a repeated unique key (as if applied one after another). */
function dedupe(table: MirrorTable, rows: readonly AnyRow[]): AnyRow[] {
  const key = uniqueKeys[table]
  const byId = new Map<unknown, AnyRow>()
  const byKey = new Map<string, unknown>()
  for (const row of rows) {
    if (key) {
      const k = key.map((c) => String(row[c])).join('\u0000')
      const previous = byKey.get(k)
      if (previous !== undefined && previous !== row.id) byId.delete(previous)
      byKey.set(k, row.id)
    }
    byId.delete(row.id) // re-insert: keeps "last wins" order
    byId.set(row.id, row)
  }
  return [...byId.values()]
}

/**
 * A wrong type would be stored as is by SQLite and refused by PostgreSQL: refuse it on both, by name.
 * Returns the row's values in `columns` order (missing ones as null), for the bulk path.
 */
function checkedArray(table: MirrorTable, columns: readonly MirrorColumn[], row: AnyRow): (string | number | null)[] {
  const values = new Array<string | number | null>(columns.length)
  for (let i = 0; i < columns.length; i++) {
    const { name, sql: type, nullable } = columns[i]
    const value = row[name]
    if (value === null || value === undefined) {
      if (!nullable) throw new Error(`${table}.${name} must not be empty (id ${String(row.id)})`)
      values[i] = null
    } else if (type !== 'text' ? !Number.isSafeInteger(value) : typeof value !== 'string') {
      throw new Error(
        `${table}.${name} must be ${type !== 'text' ? 'an integer' : 'text'}, got ${JSON.stringify(value)} (id ${String(row.id)})`,
      )
    } else values[i] = value as string | number
  }
  return values
}

function checkRow(table: MirrorTable, columns: readonly MirrorColumn[], row: AnyRow): void {
  checkedArray(table, columns, row)
}

/** SQLite's placeholders are `?`, PostgreSQL's `$n`. */
function isSqlite(db: Kysely<DB>): boolean {
  return sql`${0}`.compile(db).sql === '?'
}

/**
 * `insert … on conflict (id) do update … where <a column differs> returning …`, built as text: at
 * tens of thousands of rows per sync the query builder's per-value nodes cost more than the write.
 * SQLite gets the rows as one JSON parameter (a short statement is prepared in microseconds, one
 * with thousands of placeholders in milliseconds); PostgreSQL a multi-row VALUES list. `unchanged`:
 * columns the caller knows equal the stored ones, left out of the SET — SQLite updates every index
 * (and fires every `update of` trigger) on a column that is SET, changed or not.
 */
function upsertStatement(
  db: Kysely<DB>,
  table: MirrorTable,
  rows: readonly AnyRow[],
  returning: readonly string[],
  unchanged: readonly string[],
): CompiledQuery {
  const columns = mirrorColumnsOf(table).map(({ name }) => name)
  const updates = columns.filter((c) => c !== 'id' && !unchanged.includes(c))
  const q = (c: string) => `"${c}"`
  // Nothing left to SET (a tag row whose torrent and tag stay): a stored row is left as it is.
  const action = updates.length
    ? `do update set ${updates.map((c) => `${q(c)} = excluded.${q(c)}`).join(', ')}
    where ${updates.map((c) => `${q(table)}.${q(c)} is distinct from excluded.${q(c)}`).join(' or ')}`
    : 'do nothing'
  const conflict = `on conflict ("id") ${action} returning ${['id', ...returning].map(q).join(', ')}`
  if (isSqlite(db)) {
    const json = JSON.stringify(rows.map((r) => columns.map((c) => r[c] ?? null)))
    // `where true`: SQLite's parser needs it between INSERT … SELECT and ON CONFLICT.
    const text = `insert into ${q(table)} (${columns.map(q).join(', ')})
      select ${columns.map((_, i) => `value ->> ${i}`).join(', ')} from json_each(?) where true ${conflict}`
    return CompiledQuery.raw(text, [json])
  }
  const parameters: unknown[] = []
  const tuples = rows.map((r) => `(${columns.map((c) => (parameters.push(r[c] ?? null), `$${parameters.length}`)).join(', ')})`)
  return CompiledQuery.raw(`insert into ${q(table)} (${columns.map(q).join(', ')}) values ${tuples.join(', ')} ${conflict}`, parameters)
}

async function upsertChunk(db: Kysely<DB>, table: MirrorTable, rows: AnyRow[]): Promise<number> {
  const ids = rows.map((r) => r.id as number)
  const pairCols = pairColumns[table]
  const key = uniqueKeys[table]
  // What the stored rows said before: a row moving to another pair / torrent, or a renamed team or
  // tag, also concerns what it was before.
  const watched =
    pairCols ?? (table === 'site_torrent_tags' ? ['torrent_id'] : table === 'site_teams' || table === 'site_tags' ? ['name'] : null)
  const looked = [...new Set([...(watched ?? []), ...(key ?? [])])]
  const before = new Map<number, AnyRow>()
  if (looked.length) {
    const { rows: old } = await sql<AnyRow>`select id, ${sql.join(looked.map((c) => sql.ref(c)))} from ${sql.table(table)}
      where ${inIntegers(sql.ref('id'), ids)}`.execute(db)
    for (const row of old) before.set(Number(row.id), row)
  }

  // Rows holding an incoming unique key under another id: the site re-created them. They go first,
  // or the insert below would violate the key. Only a row that is new or changes its key can meet one.
  if (key) {
    const moving = rows.filter((r) => {
      const old = before.get(r.id as number)
      return !old || key.some((c) => String(old[c]) !== String(r[c]))
    })
    if (moving.length) {
      const values = sql.join(moving.map((r) => sql`(${sql.lit(r.id as number)}, ${sql.join(key.map((c) => keyValue(r[c])))})`))
      const names = key.map((_, i) => sql.raw(`k${i}`))
      const { rows: stale } = await sql<{ id: number }>`with v (id, ${sql.join(names)}) as (values ${values})
        select x.id from ${sql.table(table)} x join v on ${sql.join(
          key.map((c, i) => sql`x.${sql.ref(c)} = v.${names[i]}`),
          sql` and `,
        )} where x.id <> v.id`.execute(db)
      if (stale.length)
        await deleteChunk(
          db,
          table,
          stale.map((r) => Number(r.id)),
        )
    }
  }

  // Rows whose key and pair columns stay as stored (nearly every update: counters and times move) are
  // written without them: their indexes are left alone (~40% of a snatch upsert, measured).
  const steady: AnyRow[] = []
  const others: AnyRow[] = []
  for (const r of rows) {
    const old = before.get(r.id as number)
    const same = old !== undefined && looked.length > 0 && looked.every((c) => String(old[c]) === String(r[c]))
    ;(same ? steady : others).push(r)
  }
  const written: AnyRow[] = []
  for (const [part, unchanged] of [
    [steady, looked],
    [others, []],
  ] as const) {
    if (part.length) written.push(...(await db.executeQuery<AnyRow>(upsertStatement(db, table, part, watched ?? [], unchanged))).rows)
  }

  if (pairCols) {
    const [uidCol, torrentCol] = pairCols
    const pairs: Pair[] = written.map((r) => ({ uid: Number(r[uidCol]), torrent: Number(r[torrentCol]) }))
    for (const r of written) {
      const old = before.get(Number(r.id))
      if (old && (Number(old[uidCol]) !== Number(r[uidCol]) || Number(old[torrentCol]) !== Number(r[torrentCol]))) {
        pairs.push({ uid: Number(old[uidCol]), torrent: Number(old[torrentCol]) })
      }
    }
    await queueSitePairs(db, pairs)
  } else if (table === 'site_torrents') {
    await queueTorrents(
      db,
      written.map((r) => Number(r.id)),
    )
  } else if (table === 'site_torrent_tags') {
    const torrents = new Set(written.map((r) => Number(r.torrent_id)))
    for (const r of written) {
      const old = before.get(Number(r.id))
      if (old) torrents.add(Number(old.torrent_id))
    }
    await queueTorrents(db, [...torrents])
  } else if (table === 'site_teams' || table === 'site_tags') {
    const renamed = written.filter((r) => before.get(Number(r.id))?.name !== r.name).map((r) => Number(r.id))
    await queueTorrentsOf(db, table, renamed)
  }
  return written.length
}

function keyValue(value: unknown): RawBuilder<unknown> {
  // Integers inline (PostgreSQL types a bare parameter in VALUES as text); text as a parameter.
  return typeof value === 'number' ? sql.lit(value) : sql`${value}`
}

async function deleteChunk(db: Kysely<DB>, table: MirrorTable, ids: readonly number[]): Promise<number> {
  const pairCols = pairColumns[table]
  const idIn = (column: string) => inIntegers(sql.ref(column), ids)
  if (pairCols) {
    const [uid, torrent] = pairCols.map((c) => sql.ref(c))
    await sql`insert into derive_queue (user_id, torrent_id)
      select distinct u.id, x.${torrent} from ${sql.table(table)} x join users u on u.site_uid = x.${uid} where ${idIn('x.id')}`.execute(db)
  } else if (table === 'site_torrents') {
    await queueTorrents(db, ids)
  } else if (table === 'site_torrent_tags') {
    await sql`insert into derive_queue (user_id, torrent_id) select distinct cast(null as integer), torrent_id from site_torrent_tags where ${idIn('id')}`.execute(
      db,
    )
  } else if (table === 'site_teams' || table === 'site_tags') {
    await queueTorrentsOf(db, table, ids)
  }
  const result = await sql`delete from ${sql.table(table)} where ${idIn('id')}`.execute(db)
  return Number(result.numAffectedRows ?? 0)
}

/** Queues (member, torrent) for pairs given in site terms; pairs of site users who are not members concern no record. */
async function queueSitePairs(db: Kysely<DB>, pairs: readonly Pair[]): Promise<void> {
  const distinct = new Map<string, Pair>()
  for (const p of pairs) distinct.set(`${p.uid}:${p.torrent}`, p)
  const list = [...distinct.values()]
  for (let i = 0; i < list.length; i += 2_000) {
    const values = sql.join(list.slice(i, i + 2_000).map((p) => sql`(${sql.lit(p.uid)}, ${sql.lit(p.torrent)})`))
    await sql`with v (uid, torrent) as (values ${values})
      insert into derive_queue (user_id, torrent_id) select u.id, v.torrent from v join users u on u.site_uid = v.uid`.execute(db)
  }
}

/** Queues the torrents of teams or tags (a rename can make them official or not). */
async function queueTorrentsOf(db: Kysely<DB>, table: 'site_teams' | 'site_tags', ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return
  const torrents =
    table === 'site_teams'
      ? sql`select id from site_torrents where ${inIntegers(sql.ref('team'), ids)}`
      : sql`select distinct torrent_id as id from site_torrent_tags where ${inIntegers(sql.ref('tag_id'), ids)}`
  await sql`insert into derive_queue (user_id, torrent_id) select cast(null as integer), t.id from (${torrents}) t`.execute(db)
}
