/**
 * Members' peers, snatched and claims (and the torrents new members uploaded): a member's rows in
 * full the first time (backfill), then those changed since the last completed pass (`last_action`,
 * claims' `updated_at`) — by a primary-key scan of the source table (the first import too), a later
 * member's backfill through the (userid) index where reads lock nothing (InnoDB), by a scan where they
 * lock the table. A table keyed by hashes (a v1.6 site's MEMORY peers) has no id order to scan: always
 * through the member index. Rows of those who left the team leave the mirror.
 *
 * On a table with table-level locks every statement stays short (the tracker's UPDATEs wait for it,
 * and announces stall meanwhile): a scan reads bounded id windows, an index read (hash-keyed tables
 * only) whole members, as many as fit a paced budget of rows — a heavy or new member alone (member-hash.ts).
 */
import { sql } from 'kysely'
import { chunks } from '../../../util/chunks'
import { scanStart } from './gaps'
import { firstMemberGroup, memberGroupRows, memberHashStep, readsByMember } from './member-hash'
import { indexStep, ownedScanStep } from './member-index'
import { scanPage, scanRanges, scanStep } from './member-scan'
import { changedSince, sourceOf } from './member-tables'
import type { SyncSession } from './session'
import { pairTables, type PairPass } from './state'

/** Our members' site uids, sorted. */
export async function memberUids(s: SyncSession): Promise<number[]> {
  const rows = await s.db.selectFrom('users').select('site_uid').distinct().where('site_uid', 'is not', null).orderBy('site_uid').execute()
  return rows.map((r) => Number(r.site_uid))
}

/** No members' rows in the mirror at all (the first import, or another source's leftovers removed). */
export async function memberTablesEmpty(s: SyncSession): Promise<boolean> {
  for (const table of ['site_peers', 'site_snatched', 'site_claims'] as const) {
    if (await s.db.selectFrom(table).select('id').limit(1).executeTakeFirst()) return false
  }
  return true
}

/**
 * Members' rows: everything of members never read before, the changes of the others since the last
 * completed pass. Keyset (uid, id) walks the source's (userid) index in order where the index ends
 * with the primary key (InnoDB), so every page is one index range; elsewhere a primary-key scan.
 */
export async function syncMemberRows(s: SyncSession, members: readonly number[]): Promise<void> {
  const p = s.state.pairs
  // Settled before the pass below changes the state (deletions.ts asks again after it).
  membersReadInFull(s, members)
  await dropFormerMembers(s, members)
  const memberSet = new Set(members)
  p.known = p.known.filter((uid) => memberSet.has(uid))
  const pass: PairPass = (p.pass ??= { startedAt: s.ctx.now, members: [...members], table: pairTables[0], step: 'new', uid: 0, id: 0 })
  const known = new Set(p.since === null ? [] : p.known)
  const since = p.since === null ? null : p.since - s.tuning.watermarkSlackMs
  const steps = pairTables.flatMap((table) => (['new', 'known'] as const).map((step) => [table, step] as const))
  const first = Math.max(
    0,
    steps.findIndex(([table, step]) => table === pass.table && step === pass.step),
  )
  for (let i = first; i < steps.length; i++) {
    const [table, step] = steps[i]
    if (i > first) Object.assign(pass, { table, step, uid: 0, id: 0 })
    // 'owned' only backfills: known members' new uploads come with the new torrents.
    if (step === 'known' && (table === 'owned' || since === null)) continue
    const uids = pass.members.filter((uid) => memberSet.has(uid) && (step === 'new') !== known.has(uid))
    // Primary-key scans: known members' changes (no date index at the source), and the first import
    // (all members new: reading the table in id order beats fetching 85% of it through the (userid)
    // index, and writes the mirror's id-keyed tables in order). A later member's backfill walks the
    // index where reads lock nothing; where they lock the table (MyISAM) it is a scan too, in paced
    // windows: there the index does not carry the id, so a walk in (uid, id) order sorts all the
    // members' remaining rows for every page, the tracker's UPDATEs waiting (member-index.ts) — a scan
    // reads the whole table, but no statement more than a window of it. Everything on a hash-keyed
    // table (no id order; MEMORY peers) goes through the index, whole members per statement (member-hash.ts).
    const source = sourceOf(table)
    const locking = s.engines.locking.has(source) && !s.engines.hashKeyed.has(source)
    const scannable = table !== 'owned' && !s.engines.hashKeyed.has(source)
    const changed = step === 'known' ? await changedSince(s, table, since!) : null
    // A hash-keyed table: whole members per statement, as many as fit a paced budget of rows (member-hash.ts).
    if (table !== 'owned' && readsByMember(s, source))
      await memberHashStep(s, table, step === 'new' ? { backfill: true, changed: null } : { backfill: false, changed }, uids, pass)
    else if (scannable && changed) await scanStep(s, table, changed, uids, pass)
    else if (scannable && step === 'new' && (p.since === null || locking)) await scanStep(s, table, null, uids, pass)
    else if (table === 'owned' && locking) await ownedScanStep(s, uids, pass)
    else await indexStep(s, table, step === 'new' ? null : since, uids, pass)
  }
  s.state.pairs = { known: pass.members.filter((uid) => memberSet.has(uid)), since: pass.startedAt, pass: null }
  await s.commit(async () => {})
}

/**
 * The members whose rows this sync reads in full — a pass that starts in this sync backfills those it
 * never read (all of them at the first import) — so their fingerprints (deletions.ts) are known without a
 * read. A pass resumed from an earlier sync may have read them there: none. Settled when first asked, before
 * syncMemberRows changes the state (a read-ahead plan and the step agree).
 */
export function membersReadInFull(s: SyncSession, members: readonly number[]): ReadonlySet<number> {
  return s.onceSync('members read in full', () => {
    const p = s.state.pairs
    if (p.pass !== null) return new Set<number>()
    const known = new Set(p.since === null ? [] : p.known)
    return new Set(members.filter((uid) => !known.has(uid)))
  })
}

/**
 * Starts the first page of each known-members scan a new pass will make (read-ahead.ts): the
 * changes of every table are read while the mirror writes those of the one before.
 */
export async function readAheadMemberRows(s: SyncSession, members: readonly number[]): Promise<void> {
  const p = s.state.pairs
  if (p.since === null || p.pass !== null) return
  const known = new Set(p.known)
  const uids = members.filter((uid) => known.has(uid))
  if (!uids.length) return
  for (const table of ['site_peers', 'site_snatched', 'site_claims'] as const) {
    const changed = await changedSince(s, table, p.since - s.tuning.watermarkSlackMs)
    if (!changed) continue
    if (readsByMember(s, sourceOf(table))) {
      const group = await firstMemberGroup(s, table, uids, false)
      if (group.length) void memberGroupRows(s, s.ahead.planned, table, changed, group, { uid: 0, id: 0 })
      continue
    }
    const span = s.span(sourceOf(table))
    for (const range of await scanRanges(s, table, changed)) {
      const from = await scanStart(s, sourceOf(table), range.after, range.upTo)
      if (from < range.upTo) void scanPage(s, s.ahead.planned, table, changed, uids)(from, Math.min(range.upTo, from + span))
    }
  }
}

/**
 * Rows of site users who are no longer members concern no record: they leave the mirror. Only
 * members' rows are ever read, so after the first import only those who left since (known before,
 * members no more) can have any — looked up through the (userid) index; the first import (whatever
 * another source left) checks every row.
 */
async function dropFormerMembers(s: SyncSession, members: readonly number[]): Promise<void> {
  const p = s.state.pairs
  const memberSet = new Set(members)
  const left = [...new Set([...p.known, ...(p.pass?.members ?? [])])].filter((uid) => !memberSet.has(uid))
  if (p.since !== null && !left.length) return
  for (const [table, col] of [
    ['site_peers', 'userid'],
    ['site_snatched', 'userid'],
    ['site_claims', 'uid'],
  ] as const) {
    // (`not in ()` is not SQL: with no members at all, every row goes.)
    const former =
      p.since !== null
        ? sql`${sql.ref(col)} in (${sql.join(left.map((m) => sql.lit(m)))})`
        : members.length
          ? sql`${sql.ref(col)} not in (${sql.join(members.map((m) => sql.lit(m)))})`
          : sql`true`
    const { rows } = await sql<{ id: number }>`select id from ${sql.table(table)} where ${former}`.execute(s.db)
    for (const ids of chunks(
      rows.map((r) => Number(r.id)),
      s.tuning.idChunk * 5,
    ))
      await s.commit((trx) => s.remove(trx, table, ids))
  }
}
