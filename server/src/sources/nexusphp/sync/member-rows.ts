/**
 * Members' peers, snatched and claims (and the torrents new members uploaded): a member's rows in
 * full the first time (backfill), then those changed since the last completed pass (`last_action`,
 * claims' `updated_at`) — by a primary-key scan of the source table (the first import too), a later
 * member's backfill through the (userid) index. Rows of those who left the team leave the mirror.
 */
import { sql } from 'kysely'
import type { MirrorRows } from '../../mirror'
import type { NexusphpConnection } from '../connection'
import { intList, readMirrorRows, tableSpecs } from '../reader'
import type { MemberIndexes } from '../schema-check'
import { chunks, fromUnix, type SyncSession } from './session'
import { pairTables, type PairPass, type PairTable } from './state'
import { tagsOf, writeTorrents } from './torrents'

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

type ChangedFilter = { where: string; values: unknown[] }
type ScanTable = 'site_peers' | 'site_snatched' | 'site_claims'

/** The source filter of rows changed since `since` (ms), or null when the table cannot tell. */
function changedSince(s: SyncSession, table: PairTable, since: number): ChangedFilter | null {
  const t = fromUnix(since)
  if (table === 'site_peers' || table === 'site_snatched') return { where: 'last_action >= FROM_UNIXTIME(?)', values: [t] }
  if (table === 'site_claims') {
    const columns = s.schema.claims
    if (!columns.has('updated_at')) return null
    const created = columns.has('created_at') ? ' OR created_at >= FROM_UNIXTIME(?)' : ''
    return { where: `(updated_at >= FROM_UNIXTIME(?) OR updated_at IS NULL${created})`, values: created ? [t, t] : [t] }
  }
  return null
}

const uidColumn = (table: PairTable) => (table === 'owned' ? 'owner' : table === 'site_claims' ? 'uid' : 'userid')

/** The distinct uids of a page (whose records to queue). */
const uidsOf = (rows: readonly unknown[], col: string) => [...new Set(rows.map((r) => Number((r as Record<string, unknown>)[col])))]

/**
 * Members' rows: everything of members never read before, the changes of the others since the last
 * completed pass. Keyset (uid, id) walks the source's (userid) index in order, so every page is one
 * index range.
 */
export async function syncMemberRows(s: SyncSession, members: readonly number[]): Promise<void> {
  const p = s.state.pairs
  await dropFormerMembers(s, members)
  const memberSet = new Set(members)
  p.known = p.known.filter((uid) => memberSet.has(uid))
  const pass: PairPass = (p.pass ??= { startedAt: s.ctx.now, members: [...members], table: pairTables[0], step: 'new', uid: 0, id: 0 })
  const known = new Set(p.since === null ? [] : p.known)
  const since = p.since === null ? null : p.since - s.tuning.watermarkSlackMs
  const steps = pairTables.flatMap((table) => (['new', 'known'] as const).map((step) => [table, step] as const))
  const first = Math.max(0, steps.findIndex(([table, step]) => table === pass.table && step === pass.step))
  for (let i = first; i < steps.length; i++) {
    const [table, step] = steps[i]
    if (i > first) Object.assign(pass, { table, step, uid: 0, id: 0 })
    // 'owned' only backfills: known members' new uploads come with the new torrents.
    if (step === 'known' && (table === 'owned' || since === null)) continue
    const uids = pass.members.filter((uid) => memberSet.has(uid) && (step === 'new') !== known.has(uid))
    // Primary-key scans: known members' changes (no date index at the source), and the first import
    // (all members new: reading the table in id order beats fetching 85% of it through the (userid)
    // index, and writes the mirror's id-keyed tables in order). A later member's backfill walks the index.
    const changed = step === 'known' ? changedSince(s, table, since!) : null
    if (table !== 'owned' && changed) await scanStep(s, table, changed, uids, pass)
    else if (table !== 'owned' && step === 'new' && p.since === null) await scanStep(s, table, null, uids, pass)
    else await indexStep(s, table, step === 'new' ? null : since, uids, pass)
  }
  s.state.pairs = { known: pass.members.filter((uid) => memberSet.has(uid)), since: pass.startedAt, pass: null }
  await s.commit(async () => {})
}

/** Members' rows through the source's (uid) index, keyset (uid, id); `since` null: all of them (a backfill). */
async function indexStep(s: SyncSession, table: PairTable, since: number | null, uids: readonly number[], pass: PairPass): Promise<void> {
  const col = uidColumn(table)
  const mirrorTable = table === 'owned' ? 'site_torrents' : table
  const changed = since === null ? null : changedSince(s, table, since)
  const page = async (group: readonly number[], uid: number, id: number) => {
    const where = [`${col} IN (${intList(group)})`, `(${col} > ? OR (${col} = ? AND id > ?))`]
    const values: unknown[] = [uid, uid, id]
    if (changed) {
      where.push(changed.where)
      values.push(...changed.values)
    }
    const tail = `WHERE ${where.join(' AND ')} ORDER BY ${col}, id LIMIT ${s.tuning.pageRows}`
    const rows = await readMirrorRows(s.source, s.schema, mirrorTable, tail, values)
    if (table !== 'owned') return { rows, tags: [] }
    // First import: new torrents already brought members' uploads in (`owner IN (members)`); the
    // bulk path would write them again. Only those missing go (the rolling refresh updates the rest).
    let torrents = rows as MirrorRows['site_torrents'][]
    if (s.freshTorrents && torrents.length) {
      const mirrored = await s.mirroredTorrents(torrents.map((t) => t.id))
      torrents = torrents.filter((t) => !mirrored.has(t.id))
    }
    return { rows, torrents, tags: await tagsOf(s, torrents.map((r) => r.id)) }
  }
  let read = 0
  for (const group of chunks(uids.filter((uid) => uid >= pass.uid), s.tuning.memberGroup)) {
    let next = page(group, pass.uid, pass.id)
    for (;;) {
      const { rows, torrents, tags } = await next
      read += rows.length
      s.progress(mirrorTable, read)
      const more = rows.length === s.tuning.pageRows
      if (rows.length) {
        const last = rows[rows.length - 1] as Record<string, unknown>
        pass.uid = Number(last[col])
        pass.id = Number(last.id)
      }
      // The source reads the next page (on its own core) while this one is written.
      if (more) {
        next = page(group, pass.uid, pass.id)
        next.catch(() => {}) // awaited on the next turn; a failed write must not leave it unhandled
      }
      await s.commit(async (trx) => {
        if (table === 'owned') await writeTorrents(s, trx, torrents ?? [], tags)
        // A member's first read (backfill): rows of a member never read cannot be in the mirror yet
        // (a former member's rows left with dropFormerMembers) — the bulk path.
        else if (since === null) await s.insertFresh(trx, table, rows as MirrorRows[typeof table][], uidsOf(rows, col))
        else await s.upsert(trx, table, rows as MirrorRows[typeof table][])
      })
      if (!more) break
    }
  }
}

/**
 * Members' rows (`changed`: those changed since the last pass; null: all, the first import) by
 * keyset on `id`, the members' index ignored. NexusPHP has no index on snatched.last_action (nor on
 * claims' dates), so a walk of the (userid) index would fetch every member row by primary key to test
 * the date — all of them, every sync — and MariaDB takes that walk for an IN list of ≥ 1,000 values
 * (`in_predicate_conversion_threshold` turns it into a join). Without it MariaDB chooses between the
 * primary-key scan (reads the table in key order: 1 M snatches in ~0.5 s against ~8.8 s for the walk)
 * and, where the table has one, the last_action index (peers: ~2 ms when few rows changed, where the
 * scan took ~0.15 s; the scan again when many did).
 */
async function scanStep(s: SyncSession, table: ScanTable, changed: ChangedFilter | null, uids: readonly number[], pass: PairPass): Promise<void> {
  if (!uids.length) return
  // A cursor of the (uid, id) walk (a pass begun by an older version) means nothing here: start over.
  if (pass.uid !== 0) Object.assign(pass, { uid: 0, id: 0 })
  const col = uidColumn(table)
  const { pageRows } = s.tuning
  let read = 0
  // Ranges in id order: the cursor only moves forward, so a resumed pass starts where it stopped.
  for (const range of await scanRanges(s, table, changed)) {
    if (range.upTo !== null && pass.id >= range.upTo) continue
    const page = scanPage(s, s.source, table, changed, uids, range.upTo)
    let next = page(Math.max(pass.id, range.after))
    for (;;) {
      const rows = await next
      read += rows.length
      s.progress(table, read)
      const more = rows.length === pageRows
      if (rows.length) pass.id = rows[rows.length - 1].id
      if (more) {
        next = page(pass.id)
        next.catch(() => {})
      }
      await s.commit(async (trx) => {
        if (changed) await s.upsert(trx, table, rows as MirrorRows[typeof table][])
        else await s.insertFresh(trx, table, rows as MirrorRows[typeof table][], uidsOf(rows, col))
      })
      if (!more) break
    }
  }
}

/**
 * The id ranges a scan reads: changed rows in `scanParts` ranges of the mirror's ids (the last open
 * to new rows), whose first pages the read-ahead starts side by side — the table scan (the sync's
 * longest source read: 1 M snatches) then takes the site's cores, not one; the first import in one
 * range. Settled once per sync, so plan and step agree.
 */
function scanRanges(s: SyncSession, table: ScanTable, changed: ChangedFilter | null): Promise<{ after: number; upTo: number | null }[]> {
  if (!changed) return Promise.resolve([{ after: 0, upTo: null }])
  return s.once(`scan ranges ${table}`, async () => {
    const max = Number((await sql<{ m: number | null }>`select max(id) as m from ${sql.table(table)}`.execute(s.db)).rows[0]?.m ?? 0)
    const parts = Math.max(1, s.tuning.scanParts)
    const bounds = Array.from({ length: parts - 1 }, (_, i) => Math.floor((max * (i + 1)) / parts))
    return [0, ...bounds].map((after, i) => ({ after, upTo: i < bounds.length ? bounds[i] : null }))
  })
}

/** A page of the keyset scan (on `id`) over members' rows, through `connection`. */
function scanPage(s: SyncSession, connection: NexusphpConnection, table: ScanTable, changed: ChangedFilter | null, uids: readonly number[], upTo: number | null) {
  const col = uidColumn(table)
  const members = intList(uids)
  const filter = changed ? ` AND ${changed.where}` : ''
  const ignored = s.memberIndexes[tableSpecs[table].source as keyof MemberIndexes]
  const hint = ignored.length ? `IGNORE INDEX (${ignored.map((i) => `\`${i.replace(/`/g, '``')}\``).join(', ')}) ` : ''
  const bounded = upTo === null ? '' : ' AND id <= ?'
  return (id: number) =>
    readMirrorRows(connection, s.schema, table,
      `${hint}WHERE id > ?${bounded} AND ${col} IN (${members})${filter} ORDER BY id LIMIT ${s.tuning.pageRows}`,
      [id, ...(upTo === null ? [] : [upTo]), ...(changed?.values ?? [])])
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
    const changed = changedSince(s, table, p.since - s.tuning.watermarkSlackMs)
    if (!changed) continue
    for (const range of await scanRanges(s, table, changed)) void scanPage(s, s.ahead.planned, table, changed, uids, range.upTo)(range.after)
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
  for (const [table, col] of [['site_peers', 'userid'], ['site_snatched', 'userid'], ['site_claims', 'uid']] as const) {
    // (`not in ()` is not SQL: with no members at all, every row goes.)
    const former =
      p.since !== null ? sql`${sql.ref(col)} in (${sql.join(left.map((m) => sql.lit(m)))})`
      : members.length ? sql`${sql.ref(col)} not in (${sql.join(members.map((m) => sql.lit(m)))})` : sql`true`
    const { rows } = await sql<{ id: number }>`select id from ${sql.table(table)} where ${former}`.execute(s.db)
    for (const ids of chunks(rows.map((r) => Number(r.id)), s.tuning.idChunk * 5)) await s.commit((trx) => s.remove(trx, table, ids))
  }
}
