/**
 * Rows the site deleted: a peer's stop event deletes its row (also inside the active window), an
 * un-claim its claim — both looked for every sync; snatches are rarely deleted (with their torrent):
 * a rolling slice per sync, checked by primary key.
 */
import { sql } from 'kysely'
import { intList } from '../reader'
import { chunks, type SyncSession } from './session'

/** Mirror ids (ascending) the source no longer has: one primary-key range of the source. */
async function vanished(s: SyncSession, table: 'snatched', ids: readonly number[]): Promise<number[]> {
  if (!ids.length) return []
  const found = await s.source.query<{ id: number }>(`SELECT id FROM ${table} WHERE id BETWEEN ? AND ?`, [ids[0], ids[ids.length - 1]], table)
  const present = new Set(found.map((r) => Number(r.id)))
  return ids.filter((id) => !present.has(id))
}

/**
 * Peers and claims: all of the members' ids, every sync — an index-only scan of the source's
 * (userid) / (uid, torrent_id) index per member group. Snatches: a rolling slice.
 */
export async function removeDeletedRows(s: SyncSession, members: readonly number[]): Promise<void> {
  for (const [table, source, col] of [['site_peers', 'peers', 'userid'], ['site_claims', 'claims', 'uid']] as const) {
    // First a fingerprint of each member's ids on both sides (count, sum and a hashed sum: an
    // index-only aggregate at the source, a covering index here); only members whose fingerprints
    // differ have their ids compared. The hash's product stays far below 2^63 for any id below 2^40
    // (NexusPHP's are unsigned 32-bit), on both sides.
    const print = `COUNT(*) AS n, SUM(id) AS s, SUM((id * 40503) % 1048573) AS h`
    const fingerprint = (r: { u: unknown; n: unknown; s: unknown; h: unknown }) => `${Number(r.n)}:${Number(r.s)}:${Number(r.h)}`
    const theirs = new Map<number, string>()
    for (const group of chunks(members, s.tuning.memberGroup)) {
      const rows = await s.source.query<{ u: number; n: number; s: string; h: string }>(
        `SELECT ${col} AS u, ${print} FROM ${source} WHERE ${col} IN (${intList(group)}) GROUP BY ${col}`, [], source)
      for (const row of rows) theirs.set(Number(row.u), fingerprint(row))
    }
    const { rows: ours } = await sql<{ u: number; n: number; s: number; h: number }>`select ${sql.ref(col)} as u, ${sql.raw(print.toLowerCase())}
      from ${sql.table(table)} group by ${sql.ref(col)}`.execute(s.db)
    const differ = ours.filter((r) => theirs.get(Number(r.u)) !== fingerprint(r)).map((r) => Number(r.u))
    const gone: number[] = []
    for (const group of chunks(differ, s.tuning.memberGroup)) {
      const rows = await s.source.query<{ id: number }>(`SELECT id FROM ${source} WHERE ${col} IN (${intList(group)})`, [], source)
      const present = new Set(rows.map((r) => Number(r.id)))
      const stored = await s.db.selectFrom(table).select('id').where(col, 'in', group).execute()
      for (const r of stored) if (!present.has(Number(r.id))) gone.push(Number(r.id))
    }
    for (const ids of chunks(gone, s.tuning.idChunk * 5)) await s.commit((trx) => s.remove(trx, table, ids))
  }
  const after = s.state.rolling.site_snatched
  const ids = (await s.db.selectFrom('site_snatched').select('id').where('id', '>', after).orderBy('id').limit(s.tuning.rollingCheckRows).execute()).map((r) => r.id)
  const gone = await vanished(s, 'snatched', ids)
  s.state.rolling.site_snatched = ids.length < s.tuning.rollingCheckRows ? 0 : ids[ids.length - 1]
  await s.commit((trx) => s.remove(trx, 'site_snatched', gone))
}
