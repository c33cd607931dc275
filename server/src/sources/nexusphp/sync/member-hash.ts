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
 * `lockedMemberGroup` members — and a member with more rows than that alone; a read of rows orders and limits nothing
 * (they are sorted here, in (uid, id) order, and committed in pages). Members are weighed by their rows in
 * the mirror (as of the last sync). A member with none there (a backfill; a member without peers — or whose
 * peers a tracker restart emptied and who has announced thousands since) has no known weight: it is not
 * assumed light but asked about first (`membersWithRows`), then read alone, or not at all when it has no rows.
 */
import type { MirrorRows } from '../../mirror'
import { chunks } from '../../../util/chunks'
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

/**
 * Which of `uids` have any row in `table` at the site: each member a hash lookup that stops at its first
 * row (`LIMIT 1`), up to `memberGroup` of them per statement (UNION ALL) — at most one row read per
 * member, however many they have. A COUNT, or a fingerprint, would read all of them: on a hash-keyed
 * table the very cost this asks in order to avoid. (Reading each such member alone instead needs no
 * question, but costs a statement per member without rows — most members, most syncs.)
 */
async function membersWithRows(s: SyncSession, table: ScanTable, uids: readonly number[]): Promise<Set<number>> {
  const [source, col] = [sourceOf(table), uidColumn(table)]
  const found = new Set<number>()
  for (const group of chunks(uids, s.memberGroup(source))) {
    const lookups = group.map((uid) => `SELECT ${col} AS u FROM ${source} WHERE ${col} = ${intList([uid])} LIMIT 1`)
    const sql = lookups.length === 1 ? lookups[0] : lookups.map((q) => `(${q})`).join(' UNION ALL ')
    // Not timed for the pace: a row per member says nothing of what a statement of whole members costs.
    for (const r of await s.source.query<{ u: number }>(sql, [], source)) found.add(Number(r.u))
  }
  return found
}

/**
 * The members of `uids` a step reads, and how it weighs them: by their rows in the mirror (none in a
 * backfill); the others — weight unknown — are asked about first (`membersWithRows`): those with rows
 * count as heavier than any budget (each alone), those without are not read (a row they gain later is
 * newer than this pass's start: the next sync's changes). Settled once per list (a read-ahead plan and its step agree).
 */
async function membersToRead(
  s: SyncSession,
  table: ScanTable,
  uids: readonly number[],
  backfill: boolean,
): Promise<{ uids: number[]; weight: (uid: number) => number | undefined }> {
  const weights = backfill ? new Map<number, number>() : await mirroredRowsPerMember(s, sourceOf(table))
  const unknown = uids.filter((uid) => !weights.has(uid))
  const withRows = unknown.length
    ? await s.once(`members with rows ${table} ${unknown.join(',')}`, () => membersWithRows(s, table, unknown))
    : new Set<number>()
  return { uids: uids.filter((uid) => weights.has(uid) || withRows.has(uid)), weight: (uid) => weights.get(uid) }
}

/** The first group a step over `uids` reads (what its read-ahead plan issues): weighed as the step weighs it, the pace's first budget. */
export async function firstMemberGroup(s: SyncSession, table: ScanTable, uids: readonly number[], backfill: boolean): Promise<number[]> {
  const source = sourceOf(table)
  const read = await membersToRead(s, table, uids, backfill)
  return read.uids.slice(0, nextGroupSize(read.uids, 0, read.weight, s.span(source), s.memberGroup(source)))
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
  const { uids: remaining, weight } = await membersToRead(
    s,
    table,
    uids.filter((uid) => uid >= pass.uid),
    backfill,
  )
  if (!remaining.length) return
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
