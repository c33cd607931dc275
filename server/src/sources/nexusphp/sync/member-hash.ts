/**
 * Members' rows of a hash-keyed table (a v1.6 site's MEMORY peers: every key a hash, table-level locks).
 * There is no id order to read by: every read goes through the member (userid) index, and what a
 * statement costs — how long the tracker's UPDATEs of the table wait for it — is the rows of its
 * members' hash chains, whatever it filters, orders or limits. Measured on MariaDB 10.11 with 25 members
 * of 5,000 peers each: `userid IN (25)` with `GROUP BY` (the deletion fingerprint) 0.11–0.64 s, the
 * changed rows (`last_action >= ?`, `ORDER BY userid, id LIMIT`) 0.05–0.33 s, a keyset page of a
 * backfill (the keyset cannot narrow a hash lookup: each page re-reads the group) 0.05–0.40 s, an
 * announce's one-row UPDATE waiting as long; one member alone (`userid = ?`) 2–7 ms.
 *
 * So a statement here covers whole members, as many as their rows fit in a budget — the paced span of
 * the table (session.ts `span`/`timed`, pace.ts: 2,000 rows at first, up to `lockedScanIds`, timed
 * toward `lockedStatementMs`; the deletion fingerprints, which send no row, `lockedScanIds`), at most
 * `lockedMemberGroup` members — and a member with more rows than that alone; it orders and limits nothing
 * (rows are sorted here, in (uid, id) order, and committed in pages). Members are weighed by their rows in
 * the mirror (as of the last sync); a member the mirror has never read (a backfill) is read alone.
 */
import type { MirrorRows } from '../../mirror'
import type { NexusphpConnection } from '../connection'
import { intList, readMirrorRows } from '../reader'
import type { SourceTable } from '../schema-check'
import { type ChangedFilter, type ScanTable, sourceOf, uidColumn, uidsOf } from './member-tables'
import type { SyncSession } from './session'
import type { PairPass } from './state'

/** Reads of `source`'s members' rows go one group of whole members per statement (hash-keyed tables). */
export function readsByMember(s: SyncSession, source: SourceTable): boolean {
  return s.engines.hashKeyed.has(source)
}

/** Mirror tables a hash-keyed source may hold members' rows of, with their uid column. */
const mirrorOf = { peers: ['site_peers', 'userid'], snatched: ['site_snatched', 'userid'], claims: ['site_claims', 'uid'] } as const

/**
 * Each member's rows of `source` in the mirror (members without any: none, 0), counted once per sync —
 * before this sync writes any (a read-ahead plan and its step group members alike).
 */
export function mirroredRowsPerMember(s: SyncSession, source: SourceTable): Promise<Map<number, number>> {
  return s.once(`mirrored rows per member ${source}`, async () => {
    const mirror = mirrorOf[source as keyof typeof mirrorOf]
    if (!mirror) return new Map()
    const [table, col] = mirror
    const rows = await s.db
      .selectFrom(table)
      .select((eb) => [eb.ref(col).as('u'), eb.fn.countAll<number>().as('n')])
      .groupBy(col)
      .execute()
    return new Map(rows.map((r) => [Number(r.u), Number(r.n)]))
  })
}

/**
 * How many of `uids` (from `from` on) the next statement takes: whole members while their `weight`s
 * fit in `budget` rows, at most `maxMembers`, at least one (a member heavier than the budget goes
 * alone; an unknown weight — `undefined` — counts as heavier).
 */
export function nextGroupSize(
  uids: readonly number[],
  from: number,
  weight: (uid: number) => number | undefined,
  budget: number,
  maxMembers: number,
): number {
  let n = 0
  let rows = 0
  while (from + n < uids.length && n < Math.max(1, maxMembers)) {
    const w = weight(uids[from + n]) ?? Number.POSITIVE_INFINITY
    if (n > 0 && rows + w > budget) break
    rows += w
    n++
    if (rows >= budget) break
  }
  return Math.max(1, n)
}

/** `uids` cut into the groups `nextGroupSize` makes, each with the budget `budget()` answers when it is reached. */
export function* pacedGroups(
  uids: readonly number[],
  weight: (uid: number) => number | undefined,
  budget: () => number,
  maxMembers: number,
): Generator<number[]> {
  for (let i = 0; i < uids.length;) {
    const n = nextGroupSize(uids, i, weight, budget(), maxMembers)
    yield uids.slice(i, i + n)
    i += n
  }
}

/** `uids` cut into the groups `nextGroupSize` makes with one budget (a plan's and its step's alike). */
export function memberGroupsByWeight(
  uids: readonly number[],
  weight: (uid: number) => number | undefined,
  budget: number,
  maxMembers: number,
): number[][] {
  return [...pacedGroups(uids, weight, () => budget, maxMembers)]
}

/** `col = x` for one member (a plain hash lookup), `col IN (…)` for several. */
export function memberFilter(col: string, group: readonly number[]): string {
  return group.length === 1 ? `${col} = ${intList(group)}` : `${col} IN (${intList(group)})`
}

/**
 * The rows of a group of members (`changed`: only those changed), past the cursor `after` (a resumed
 * pass: (uid, id) of the last row committed), in (uid, id) order — sorted here, not by the site.
 */
export async function memberGroupRows<T extends ScanTable>(
  s: SyncSession,
  connection: NexusphpConnection,
  table: T,
  changed: ChangedFilter | null,
  group: readonly number[],
  after: { uid: number; id: number } | null = null,
): Promise<MirrorRows[T][]> {
  const col = uidColumn(table)
  const where = [memberFilter(col, group)]
  const values: unknown[] = []
  if (after && after.id > 0) {
    where.push(`(${col} > ? OR (${col} = ? AND id > ?))`)
    values.push(after.uid, after.uid, after.id)
  }
  if (changed) {
    where.push(changed.where)
    values.push(...changed.values)
  }
  const rows = await readMirrorRows(connection, s.schema, table, `WHERE ${where.join(' AND ')}`, values)
  const key = (r: MirrorRows[T]) => r as unknown as Record<string, number>
  return rows.sort((a, b) => key(a)[col] - key(b)[col] || key(a).id - key(b).id)
}

/** How a step weighs members: known ones by their mirrored rows (none: 0); in a backfill, never read, unknown (each alone). */
async function weigher(s: SyncSession, source: SourceTable, backfill: boolean): Promise<(uid: number) => number | undefined> {
  if (backfill) return () => undefined
  const weights = await mirroredRowsPerMember(s, source)
  return (uid) => weights.get(uid) ?? 0
}

/** The first group a step over `uids` reads (what its read-ahead plan issues): weighed as the step weighs it, the pace's first budget. */
export async function firstMemberGroup(s: SyncSession, table: ScanTable, uids: readonly number[], backfill: boolean): Promise<number[]> {
  const source = sourceOf(table)
  return uids.slice(0, nextGroupSize(uids, 0, await weigher(s, source, backfill), s.span(source), s.memberGroup(source)))
}

/**
 * Members' rows of a hash-keyed table (a backfill: all of them; else those `changed`, or all where the table cannot tell),
 * a group of whole members per statement (see above), each timed for the table's pace; the rows gather
 * into pages of `pageRows`, each committed with the cursor (uid, id) of its last row. The next group is
 * read while a page is written. Resumable at (pass.uid, pass.id).
 */
export async function memberHashStep(
  s: SyncSession,
  table: ScanTable,
  step: { backfill: true; changed: null } | { backfill: false; changed: ChangedFilter | null },
  uids: readonly number[],
  pass: PairPass,
): Promise<void> {
  const source = sourceOf(table)
  const col = uidColumn(table)
  const { backfill, changed } = step
  const remaining = uids.filter((uid) => uid >= pass.uid)
  if (!remaining.length) return
  const weight = await weigher(s, source, backfill)
  const { pageRows } = s.tuning
  // The first group resumes after the cursor (a pass cut short); the first budget is the pace's start.
  let after: { uid: number; id: number } | null = { uid: pass.uid, id: pass.id }
  let at = 0
  const readNext = () => {
    const n = nextGroupSize(remaining, at, weight, s.span(source, at > 0), s.memberGroup(source))
    const read = memberGroupRows(s, s.source, table, changed, remaining.slice(at, at + n), after)
    after = null
    at += n
    return s.timed(source, read)
  }
  let next: Promise<MirrorRows[ScanTable][]> | null = readNext()
  let batch: MirrorRows[ScanTable][] = []
  let read = 0
  while (next) {
    const rows: MirrorRows[ScanTable][] = await next
    read += rows.length
    s.progress(table, read)
    // The source reads the next group (on its own core) while this one is written.
    next = at < remaining.length ? readNext() : null
    next?.catch(() => {}) // awaited on the next turn; a failed write must not leave it unhandled
    for (const row of rows) batch.push(row)
    while (batch.length >= pageRows || (!next && batch.length)) {
      const page = batch.slice(0, pageRows)
      batch = batch.slice(pageRows)
      const last = page[page.length - 1] as unknown as Record<string, number>
      pass.uid = Number(last[col])
      pass.id = Number(last.id)
      await s.commit(async (trx) => {
        // A member's first read (backfill): their rows cannot be in the mirror yet — the bulk path.
        if (backfill) await s.insertFresh(trx, table, page, uidsOf(page, col))
        else await s.upsert(trx, table, page)
      })
    }
  }
}
