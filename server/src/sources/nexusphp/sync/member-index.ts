/**
 * Members' rows through the source's member (uid) index, a few members at a time, keyset (uid, id):
 * a later member's backfill, changes where no primary-key scan can tell them, every read of a
 * hash-keyed table. Also the members' uploads ('owned').
 */
import type { MirrorRows } from '../../mirror'
import type { NexusphpConnection } from '../connection'
import { intList, readMirrorRows } from '../reader'
import { chunks } from '../../../util/chunks'
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
