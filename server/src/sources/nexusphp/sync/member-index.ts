/**
 * Members' rows through the source's member (uid) index, a few members at a time, keyset (uid, id):
 * a later member's backfill where reads lock nothing (InnoDB), changes where no primary-key scan can
 * tell them (a hash-keyed table's reads: member-hash.ts). Also the members' uploads ('owned'): through the owner
 * index, or by a primary-key scan of torrents where its reads lock the table (`ownedScanStep`).
 *
 * The keyset (uid, id) is one ordered range only where the member index carries the primary key
 * (InnoDB). A MyISAM index does not: `ORDER BY uid, id` then reads every remaining row of the group and
 * sorts it, for each page (a v1.6 site, 25 members × 10,000 snatches: 250,000 rows read, 0.5–0.9 s,
 * for each page of 5,000) — and so does `uid = ? AND id > ? ORDER BY id`, one member at a time (all
 * their rows, every page). On such a table the backfill reads bounded primary-key windows instead.
 */
import type { MirrorRows } from '../../mirror'
import type { NexusphpConnection } from '../connection'
import { intList, readMirrorRows } from '../reader'
import { chunks } from '../../../util/chunks'
import { ScanGaps } from './gaps'
import { type ChangedFilter, changedSince, sourceOf, uidColumn, uidsOf } from './member-tables'
import type { SyncSession } from './session'
import type { PairPass, PairTable } from './state'
import { tagsOf, writeTorrents } from './torrents'

/** Members' rows through the source's (uid) index, keyset (uid, id); `since` null: all of them (a backfill). */
export async function indexStep(
  s: SyncSession,
  table: PairTable,
  since: number | null,
  uids: readonly number[],
  pass: PairPass,
): Promise<void> {
  const col = uidColumn(table)
  const changed = since === null ? null : await changedSince(s, table, since)
  const page = async (group: readonly number[], uid: number, id: number) => {
    const rows = await indexPage(s, s.source, table, changed, group)(uid, id)
    if (table !== 'owned') return { rows, tags: [] }
    // First import: new torrents already brought members' uploads in (`owner IN (members)`); the
    // bulk path would write them again. Only those missing go (the rolling refresh updates the rest).
    let torrents = rows as MirrorRows['site_torrents'][]
    if (s.freshTorrents && torrents.length) {
      const mirrored = await s.mirroredTorrents(torrents.map((t) => t.id))
      torrents = torrents.filter((t) => !mirrored.has(t.id))
    }
    return {
      rows,
      torrents,
      tags: await tagsOf(
        s,
        torrents.map((r) => r.id),
      ),
    }
  }
  let read = 0
  for (const group of memberGroups(
    s,
    table,
    uids.filter((uid) => uid >= pass.uid),
  )) {
    let next = page(group, pass.uid, pass.id)
    for (;;) {
      const { rows, torrents, tags } = await next
      read += rows.length
      s.progress(table === 'owned' ? 'site_torrents' : table, read)
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

/** The members a statement through `table`'s member index looks up at a time. */
export function memberGroups(s: SyncSession, table: PairTable, uids: readonly number[]): number[][] {
  return chunks(uids, s.memberGroup(sourceOf(table)))
}

/** A page of members' rows through the source's member index, keyset (uid, id), through `connection`. */
export function indexPage(
  s: SyncSession,
  connection: NexusphpConnection,
  table: PairTable,
  changed: ChangedFilter | null,
  group: readonly number[],
) {
  const col = uidColumn(table)
  const mirrorTable = table === 'owned' ? 'site_torrents' : table
  return (uid: number, id: number) => {
    const where = [`${col} IN (${intList(group)})`, `(${col} > ? OR (${col} = ? AND id > ?))`]
    const values: unknown[] = [uid, uid, id]
    if (changed) {
      where.push(changed.where)
      values.push(...changed.values)
    }
    return readMirrorRows(
      connection,
      s.schema,
      mirrorTable,
      `WHERE ${where.join(' AND ')} ORDER BY ${col}, id LIMIT ${s.tuning.pageRows}`,
      values,
    )
  }
}

/**
 * Members' uploads ('owned') where a read of torrents locks it (a v1.6 site's MyISAM torrents): by
 * primary-key windows (`s.span`, paced by `s.timed` like the new-torrents scan), `owner IN (members)`
 * tested on each row of the window, up to the source's highest id when the sync first asked (uploads
 * past it come with the new torrents). Every statement reads at most a window of ids and sorts
 * nothing (the range is already in id order), however many torrents the members own; the owner index
 * is kept out (FORCE INDEX): through it a window would read all the members' uploads to keep those in
 * the window. Resumable at `pass.id`.
 */
export async function ownedScanStep(s: SyncSession, uids: readonly number[], pass: PairPass): Promise<void> {
  if (!uids.length) return
  // A cursor of the (owner, id) walk (a pass begun through the owner index) means nothing here: start over.
  if (pass.uid !== 0) Object.assign(pass, { uid: 0, id: 0 })
  const { pageRows } = s.tuning
  const end = await s.sourceMaxId('torrents')
  const members = intList(uids)
  const window = (after: number, later: boolean) => {
    const upTo = Math.min(end, after + s.span('torrents', later))
    const read = readMirrorRows(
      s.source,
      s.schema,
      'site_torrents',
      `FORCE INDEX (PRIMARY) WHERE id > ? AND id <= ? AND owner IN (${members}) ORDER BY id LIMIT ${pageRows}`,
      [after, upTo],
    )
    return s.timed('torrents', read).then((rows) => ({ rows, upTo }))
  }
  let read = 0
  // Windows skip the ids the table does not have (gaps.ts).
  const gaps = new ScanGaps(s, 'torrents', end)
  const from = await gaps.start(pass.id)
  let next = from < end ? window(from, false) : null
  while (next) {
    const { rows, upTo } = await next
    read += rows.length
    s.progress('site_torrents', read)
    // A full page ends at its last row; otherwise the window was read to its end (and the gap after an empty one).
    pass.id = rows.length === pageRows ? rows[rows.length - 1].id : await gaps.next(upTo, rows.length > 0)
    // First import: the new torrents already brought these in (see indexStep).
    let torrents = rows
    if (s.freshTorrents && torrents.length) {
      const mirrored = await s.mirroredTorrents(torrents.map((t) => t.id))
      torrents = torrents.filter((t) => !mirrored.has(t.id))
    }
    const tags = await tagsOf(
      s,
      torrents.map((t) => t.id),
    )
    // The source reads the next window while this one is written.
    next = pass.id < end ? window(pass.id, true) : null
    next?.catch(() => {}) // awaited on the next turn; a failed write must not leave it unhandled
    // An empty window only moves the cursor: it is recorded with the next page (or the last window).
    if (torrents.length || !next) await s.commit((trx) => writeTorrents(s, trx, torrents, tags))
  }
}
