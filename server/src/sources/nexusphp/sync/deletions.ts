/**
 * Rows the site deleted: a peer's stop event deletes its row (also inside the active window), an
 * un-claim its claim — both looked for every sync; snatches are rarely deleted (with their torrent):
 * a rolling slice per sync, checked by primary key.
 */
import { sql } from 'kysely'
import type { NexusphpConnection } from '../connection'
import { intList } from '../reader'
import { chunks } from '../../../util/chunks'
import { memberFilter, memberGroupsByWeight, mirroredRowsPerMember, pacedGroups, readsByMember } from './member-hash'
import { membersReadInFull } from './member-rows'
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

/**
 * A hash-keyed table's fingerprints (member-hash.ts): one member's a plain hash lookup and sum, no
 * grouping (no temporary table); a few light members' grouped, unsorted. A member with no rows answers
 * n = 0, as a member missing from a grouped answer.
 */
async function memberPrints(connection: NexusphpConnection, [, source, col]: Watched, group: readonly number[]) {
  if (group.length > 1)
    return connection.query<{ u: number; n: number; s: string; h: string }>(
      `SELECT ${col} AS u, ${print} FROM ${source} WHERE ${memberFilter(col, group)} GROUP BY ${col} ORDER BY NULL`,
      [],
      source,
    )
  const rows = await connection.query<{ n: number; s: string; h: string }>(
    `SELECT ${print} FROM ${source} WHERE ${memberFilter(col, group)}`,
    [],
    source,
  )
  return rows.filter((r) => Number(r.n) > 0).map((r) => ({ ...r, u: group[0] }))
}

/**
 * The groups of members whose fingerprints a hash-keyed table is asked for: not those this sync read in
 * full (their rows in the mirror are the site's: member-rows.ts `membersReadInFull`) nor those without rows
 * in the mirror (nothing of theirs to delete), the rest weighed by
 * their mirrored rows against the largest budget, `lockedScanIds` (an aggregate of a hash lookup, no row
 * sent: 5,000 rows of one member 2 ms; on the bench site 25 members, ~3,500 rows, as before) — settled once,
 * before any is timed (a read-ahead plan and its step agree).
 */
function printGroups(s: SyncSession, [, source]: Watched, members: readonly number[]): Promise<number[][]> {
  return s.once(`print groups ${source}`, async () => {
    const readInFull = membersReadInFull(s, members)
    const weights = await mirroredRowsPerMember(s, source)
    // A member with no rows in the mirror has none to lose (the comparison below only looks at mirrored members):
    // not asked — nor weighed as 0 beside heavy ones (a pass resumed after a cut, a MEMORY table emptied by a restart).
    const uids = members.filter((uid) => !readInFull.has(uid) && (weights.get(uid) ?? 0) > 0)
    return memberGroupsByWeight(uids, (uid) => weights.get(uid)!, s.tuning.lockedScanIds, s.memberGroup(source))
  })
}

/** The reads of `table`'s fingerprints, one per member group (hash-keyed: `printGroups`; else IN lists), each started when called. */
async function fingerprintReads(s: SyncSession, connection: NexusphpConnection, table: Watched, members: readonly number[]) {
  const source = table[1]
  if (readsByMember(s, source)) return (await printGroups(s, table, members)).map((group) => () => memberPrints(connection, table, group))
  return chunks(members, s.memberGroup(source)).map((group) => () => sourcePrints(connection, table, group))
}

/**
 * The members whose ids are read (their fingerprints differ): IN lists; on a hash-keyed table, whole
 * members as many as their rows fit in the paced budget (member-hash.ts) — weighed by their rows in the
 * mirror now (`mirrored`), after this sync's writes: a member the sync started without (a MEMORY table
 * emptied by a restart, then announced again; a pass resumed after a cut) weighs what was just read of it, not 0.
 */
function idGroups(s: SyncSession, [, source]: Watched, uids: readonly number[], mirrored: ReadonlyMap<number, number>): Iterable<number[]> {
  if (!readsByMember(s, source)) return chunks(uids, s.memberGroup(source))
  // Each group as the statement before it left the pace.
  return pacedGroups(
    uids,
    (uid) => mirrored.get(uid),
    () => s.span(source, true),
    s.memberGroup(source),
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
 * The rolling check's ids (ascending) in runs that each span at most `span` ids and hold at most a lookup's worth: one
 * statement of the source each (short where the tracker waits for it).
 */
function snatchRuns(s: SyncSession, ids: readonly number[]): number[][] {
  const span = s.span('snatched')
  const most = s.lookupChunk('snatched')
  const runs: number[][] = []
  for (const id of ids) {
    const run = runs[runs.length - 1]
    if (run && id - run[0] < span && run.length < most) run.push(id)
    else runs.push([id])
  }
  return runs
}

/**
 * Which of these source ids exist: looked up by primary key — not the range between them, which on a big site holds
 * every other user's snatches too (a small team's 20,000 snatches spread over years: the whole id column each sync).
 */
function presentSnatches(connection: NexusphpConnection, ids: readonly number[]) {
  return connection.query<{ id: number }>(`SELECT id FROM snatched FORCE INDEX (PRIMARY) WHERE id IN (${intList(ids)})`, [], 'snatched')
}

/** Starts the source's side of removeDeletedRows (read-ahead.ts): the fingerprints and the rolling range. */
export async function readAheadDeletions(s: SyncSession, members: readonly number[]): Promise<void> {
  for (const table of watched) for (const read of await fingerprintReads(s, s.ahead.planned, table, members)) void read()
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
    // One statement at a time (those of a hash-keyed table timed for its pace).
    const byMember = readsByMember(s, source)
    for (const read of await fingerprintReads(s, s.source, table, members)) {
      for (const row of await (byMember ? s.timed(source, read()) : read())) theirs.set(Number(row.u), fingerprint(row))
    }
    // Members whose rows this sync read in full need no comparison (hash-keyed tables: not asked).
    const settled = byMember ? membersReadInFull(s, members) : new Set<number>()
    const { rows: ours } = await sql<{
      u: number
      n: number
      s: number
      h: number
    }>`select ${sql.ref(col)} as u, ${sql.raw(print.toLowerCase())}
      from ${sql.table(mirror)} group by ${sql.ref(col)}`.execute(s.db)
    const differ = ours.filter((r) => !settled.has(Number(r.u)) && theirs.get(Number(r.u)) !== fingerprint(r)).map((r) => Number(r.u))
    const gone: number[] = []
    for (const group of idGroups(s, table, differ, new Map(ours.map((r) => [Number(r.u), Number(r.n)])))) {
      const ids = s.source.query<{ id: number }>(
        `SELECT id FROM ${source} WHERE ${byMember ? memberFilter(col, group) : `${col} IN (${intList(group)})`}`,
        [],
        source,
      )
      const rows = await (byMember ? s.timed(source, ids) : ids)
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
