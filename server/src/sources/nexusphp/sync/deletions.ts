/**
 * Rows the site deleted: a peer's stop event deletes its row (also inside the active window), an
 * un-claim its claim — both looked for every sync; snatches are rarely deleted (with their torrent):
 * a rolling slice per sync, checked by primary key.
 */
import { sql } from 'kysely'
import type { NexusphpConnection } from '../connection'
import { intList } from '../reader'
import { chunks } from '../../../util/chunks'
import { type SyncSession } from './session'

/** Members' tables whose deletions are looked for every sync: [mirror table, source table, uid column]. */
const watched = [
  ['site_peers', 'peers', 'userid'],
  ['site_claims', 'claims', 'uid'],
] as const
type Watched = (typeof watched)[number]

/**
 * A fingerprint of each member's ids (count, sum and a hashed sum): an index-only aggregate at the
 * source, a covering index here. The hash's product stays far below 2^63 for any id below 2^40
 * (NexusPHP's are unsigned 32-bit), on both sides.
 */
const print = `COUNT(*) AS n, SUM(id) AS s, SUM((id * 40503) % 1048573) AS h`
const fingerprint = (r: { n: unknown; s: unknown; h: unknown }) => `${Number(r.n)}:${Number(r.s)}:${Number(r.h)}`

function sourcePrints(connection: NexusphpConnection, [, source, col]: Watched, group: readonly number[]) {
  return connection.query<{ u: number; n: number; s: string; h: string }>(
    `SELECT ${col} AS u, ${print} FROM ${source} WHERE ${col} IN (${intList(group)}) GROUP BY ${col}`,
    [],
    source,
  )
}

/** The mirror snatches the rolling check looks at this sync, settled when first asked (snatches this sync writes were just read). */
function rollingSnatches(s: SyncSession): Promise<number[]> {
  return s.once('rolling snatches', async () => {
    const after = s.state.rolling.site_snatched
    return (
      await s.db.selectFrom('site_snatched').select('id').where('id', '>', after).orderBy('id').limit(s.tuning.rollingCheckRows).execute()
    ).map((r) => r.id)
  })
}

/**
 * The rolling check's ids (ascending) in runs that each span at most `span` ids: one primary-key range
 * of the source each (short where the tracker waits for it).
 */
function snatchRuns(s: SyncSession, ids: readonly number[]): number[][] {
  const span = s.span('snatched')
  const runs: number[][] = []
  for (const id of ids) {
    const run = runs[runs.length - 1]
    if (run && id - run[0] < span) run.push(id)
    else runs.push([id])
  }
  return runs
}

/** Which of these source ids (ascending) exist: one primary-key range of the source. */
function presentSnatches(connection: NexusphpConnection, ids: readonly number[]) {
  return connection.query<{ id: number }>('SELECT id FROM snatched WHERE id BETWEEN ? AND ?', [ids[0], ids[ids.length - 1]], 'snatched')
}

/** Starts the source's side of removeDeletedRows (read-ahead.ts): the fingerprints and the rolling range. */
export async function readAheadDeletions(s: SyncSession, members: readonly number[]): Promise<void> {
  for (const table of watched)
    for (const group of chunks(members, s.memberGroup(table[1]))) void sourcePrints(s.ahead.planned, table, group)
  for (const run of snatchRuns(s, await rollingSnatches(s))) void presentSnatches(s.ahead.planned, run)
}

/**
 * Peers and claims: the members whose fingerprints differ on the two sides have their ids compared.
 * Snatches: a rolling slice.
 */
export async function removeDeletedRows(s: SyncSession, members: readonly number[]): Promise<void> {
  for (const table of watched) {
    const [mirror, source, col] = table
    const theirs = new Map<number, string>()
    for (const group of chunks(members, s.memberGroup(source))) {
      for (const row of await sourcePrints(s.source, table, group)) theirs.set(Number(row.u), fingerprint(row))
    }
    const { rows: ours } = await sql<{
      u: number
      n: number
      s: number
      h: number
    }>`select ${sql.ref(col)} as u, ${sql.raw(print.toLowerCase())}
      from ${sql.table(mirror)} group by ${sql.ref(col)}`.execute(s.db)
    const differ = ours.filter((r) => theirs.get(Number(r.u)) !== fingerprint(r)).map((r) => Number(r.u))
    const gone: number[] = []
    for (const group of chunks(differ, s.memberGroup(source))) {
      const rows = await s.source.query<{ id: number }>(`SELECT id FROM ${source} WHERE ${col} IN (${intList(group)})`, [], source)
      const present = new Set(rows.map((r) => Number(r.id)))
      const stored = await s.db.selectFrom(mirror).select('id').where(col, 'in', group).execute()
      for (const r of stored) if (!present.has(Number(r.id))) gone.push(Number(r.id))
    }
    for (const ids of chunks(gone, s.tuning.idChunk * 5)) await s.commit((trx) => s.remove(trx, mirror, ids))
  }
  const ids = await rollingSnatches(s)
  const present = new Set<number>()
  for (const run of snatchRuns(s, ids)) for (const r of await presentSnatches(s.source, run)) present.add(Number(r.id))
  const gone = ids.filter((id) => !present.has(id))
  s.state.rolling.site_snatched = ids.length < s.tuning.rollingCheckRows ? 0 : ids[ids.length - 1]
  await s.commit((trx) => s.remove(trx, 'site_snatched', gone))
}
