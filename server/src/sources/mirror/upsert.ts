/**
 * Upserts into the mirror: rows written by `id`, a row equal to the stored one left alone, and what
 * a change can affect queued for the derivation in the same transaction.
 */
import { CompiledQuery, type Kysely, type RawBuilder, sql } from 'kysely'
import type { DB } from '../../db/schema'
import { dialectOf, inIntegers } from '../../db/sql-fragments'
import { queueTorrents } from '../../derive/queue'
import { type MirrorTable, mirrorColumnsOf } from './columns'
import { deleteChunk } from './delete'
import { pairColumns, type Pair, queueSitePairs, queueTorrentsOf } from './queue-affected'
import { type AnyRow, checkRow, dedupe, inTransaction, type MirrorRows, uniqueKeys } from './rows'

/** Parameters per statement, below SQLite's 32,766 and PostgreSQL's 65,535. */
const PARAMS_PER_STATEMENT = 16_000

/**
 * Inserts or updates rows by `id` (rows equal to the stored ones are left alone and queue nothing),
 * and queues what the change can affect: records of (member, torrent) for peers, snatches and claims;
 * torrents for torrents and their tags; the torrents of a team or tag whose name changed (official by
 * rule goes by name). Returns the rows written. Runs in `db` when it is a transaction, else in one.
 */
export async function upsertMirror<T extends MirrorTable>(
  db: Kysely<DB>,
  table: T,
  rows: readonly MirrorRows[T][],
  options: UpsertOptions = {},
): Promise<number> {
  if (rows.length === 0) return 0
  const columns = mirrorColumnsOf(table)
  const unique = dedupe(table, rows as unknown as readonly AnyRow[])
  for (const row of unique) checkRow(table, columns, row)
  return inTransaction(db, async (trx) => {
    const size = Math.max(1, Math.floor(PARAMS_PER_STATEMENT / columns.length))
    let written = 0
    for (let i = 0; i < unique.length; i += size) written += await upsertChunk(trx, table, unique.slice(i, i + size), options)
    return written
  })
}

export interface UpsertOptions {
  /**
   * SQL over the stored row (`"<table>"."col"`) and the incoming one (`excluded."col"`): where it holds,
   * the stored row is kept as it is. Part of the conflict update's WHERE, so the check and the write
   * are one statement (a push replayed or arriving out of order, sources/ingest). Trusted text only.
   */
  keepStoredWhen?: string
  /**
   * Called with the ids of stored rows that an incoming row replaces by unique key (the site re-created them under a
   * new id), in the same transaction, before they are deleted: a deletion that never came as one (sources/ingest
   * remembers it, so a late push of the old row does not bring it back once its successor is deleted).
   */
  onReplaced?: (db: Kysely<DB>, ids: number[]) => Promise<void>
}

export function isSqlite(db: Kysely<DB>): boolean {
  return dialectOf(db) === 'sqlite'
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
  keepStoredWhen?: string,
): CompiledQuery {
  const columns = mirrorColumnsOf(table).map(({ name }) => name)
  const updates = columns.filter((c) => c !== 'id' && !unchanged.includes(c))
  const q = (c: string) => `"${c}"`
  // Nothing left to SET (a tag row whose torrent and tag stay): a stored row is left as it is.
  const action = updates.length
    ? `do update set ${updates.map((c) => `${q(c)} = excluded.${q(c)}`).join(', ')}
    where (${updates.map((c) => `${q(table)}.${q(c)} is distinct from excluded.${q(c)}`).join(' or ')})${
      keepStoredWhen ? ` and not (${keepStoredWhen})` : ''
    }`
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

async function upsertChunk(db: Kysely<DB>, table: MirrorTable, rows: AnyRow[], options: UpsertOptions): Promise<number> {
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
      if (stale.length) {
        const replaced = stale.map((r) => Number(r.id))
        await options.onReplaced?.(db, replaced)
        await deleteChunk(db, table, replaced)
      }
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
    if (part.length)
      written.push(
        ...(await db.executeQuery<AnyRow>(upsertStatement(db, table, part, watched ?? [], unchanged, options.keepStoredWhen))).rows,
      )
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
