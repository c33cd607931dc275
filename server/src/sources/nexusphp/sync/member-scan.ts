/** Members' rows by a primary-key scan of the source table, in bounded id windows. */
import { sql } from 'kysely'
import type { MirrorRows } from '../../mirror'
import type { NexusphpConnection } from '../connection'
import { intList, readMirrorRows, tableSpecs } from '../reader'
import type { MemberIndexes } from '../schema-check'
import { ScanGaps } from './gaps'
import { type ChangedFilter, type ScanTable, sourceOf, uidColumn, uidsOf } from './member-tables'
import type { SyncSession } from './session'
import type { PairPass } from './state'

/**
 * Members' rows (`changed`: those changed since the last pass; null: all, the first import) by
 * keyset on `id`, the members' index ignored. NexusPHP has no index on snatched.last_action (nor on
 * claims' dates), so a walk of the (userid) index would fetch every member row by primary key to test
 * the date — all of them, every sync — and MariaDB takes that walk for an IN list of ≥ 1,000 values
 * (`in_predicate_conversion_threshold` turns it into a join). Without it MariaDB chooses between the
 * primary-key scan (reads the table in key order: 1 M snatches in ~0.5 s against ~8.8 s for the walk)
 * and, where the table has one, the last_action index (peers: ~2 ms when few rows changed, where the
 * scan took ~0.15 s; the scan again when many did).
 *
 * Each statement covers an id window of `s.span` ids (unbounded on InnoDB, whose reads lock nothing):
 * on a MyISAM table a scan in one statement held the tracker's UPDATEs back for its whole length.
 */
export async function scanStep(
  s: SyncSession,
  table: ScanTable,
  changed: ChangedFilter | null,
  uids: readonly number[],
  pass: PairPass,
): Promise<void> {
  if (!uids.length) return
  // A cursor of the (uid, id) walk (a pass begun by an older version) means nothing here: start over.
  if (pass.uid !== 0) Object.assign(pass, { uid: 0, id: 0 })
  const col = uidColumn(table)
  const { pageRows } = s.tuning
  const source = sourceOf(table)
  let read = 0
  // Ranges in id order: the cursor only moves forward, so a resumed pass starts where it stopped.
  for (const range of await scanRanges(s, table, changed)) {
    if (pass.id >= range.upTo) continue
    const page = scanPage(s, s.source, table, changed, uids)
    const window = (after: number, later: boolean) => s.timed(source, page(after, Math.min(range.upTo, after + s.span(source, later))))
    // Windows skip the ids the table does not have (gaps.ts).
    const gaps = new ScanGaps(s, source, range.upTo)
    const from = await gaps.start(Math.max(pass.id, range.after))
    if (from >= range.upTo) {
      pass.id = range.upTo
      continue
    }
    let next = window(from, false)
    // Windows' rows gather into pages of about `pageRows` (one transaction each), the cursor with them.
    let batch: MirrorRows[typeof table][] = []
    for (;;) {
      const { rows, upTo } = await next
      read += rows.length
      s.progress(table, read)
      // A full page ends at its last row; otherwise the window was read to its end (and the gap after an empty one).
      pass.id = rows.length === pageRows ? rows[rows.length - 1].id : await gaps.next(upTo, rows.length > 0)
      const more = pass.id < range.upTo
      if (more) {
        next = window(pass.id, true)
        next.catch(() => {}) // awaited on the next turn; a failed write must not leave it unhandled
      }
      for (const row of rows) batch.push(row as MirrorRows[typeof table])
      if (batch.length >= pageRows || (!more && batch.length)) {
        const pageOf = batch
        batch = []
        await s.commit(async (trx) => {
          if (changed) await s.upsert(trx, table, pageOf)
          else await s.insertFresh(trx, table, pageOf, uidsOf(pageOf, col))
        })
      }
      if (!more) break
    }
  }
}

/**
 * The id ranges a scan reads, up to the source's highest id when the sync first asked (rows added
 * past it have a last_action after the pass began: the next pass reads them): changed rows in
 * `scanParts` ranges of the mirror's ids (InnoDB), whose first pages the read-ahead starts side by side —
 * the table scan (the sync's longest source read: 1 M snatches) then takes the site's cores, not one; the
 * first import in one range. Settled once per sync, so plan and step agree.
 */
export function scanRanges(s: SyncSession, table: ScanTable, changed: ChangedFilter | null): Promise<{ after: number; upTo: number }[]> {
  return s.once(`scan ranges ${table} ${changed ? 'changed' : 'all'}`, async () => {
    const end = await s.sourceMaxId(sourceOf(table))
    if (!changed) return [{ after: 0, upTo: end }]
    const max = Number((await sql<{ m: number | null }>`select max(id) as m from ${sql.table(table)}`.execute(s.db)).rows[0]?.m ?? 0)
    // Where reads lock the table, one range: two readers side by side would share the site's cores and
    // each hold the tracker's UPDATE back longer.
    const parts = s.engines.locking.has(sourceOf(table)) ? 1 : Math.max(1, s.tuning.scanParts)
    const bounds = Array.from({ length: parts - 1 }, (_, i) => Math.min(end, Math.floor((max * (i + 1)) / parts)))
    return [0, ...bounds].map((after, i) => ({ after, upTo: i < bounds.length ? bounds[i] : end }))
  })
}

/** A page of the keyset scan (on `id`) over members' rows in the id window (after, upTo], through `connection`. */
export function scanPage(
  s: SyncSession,
  connection: NexusphpConnection,
  table: ScanTable,
  changed: ChangedFilter | null,
  uids: readonly number[],
) {
  const col = uidColumn(table)
  const members = intList(uids)
  const filter = changed ? ` AND ${changed.where}` : ''
  const ignored = s.memberIndexes[tableSpecs[table].source as keyof MemberIndexes]
  const hint = ignored.length ? `IGNORE INDEX (${ignored.map((i) => `\`${i.replace(/`/g, '``')}\``).join(', ')}) ` : ''
  return async (after: number, upTo: number) => {
    const rows = await readMirrorRows(
      connection,
      s.schema,
      table,
      `${hint}WHERE id > ? AND id <= ? AND ${col} IN (${members})${filter} ORDER BY id LIMIT ${s.tuning.pageRows}`,
      [after, upTo, ...(changed?.values ?? [])],
    )
    return { rows, upTo }
  }
}
