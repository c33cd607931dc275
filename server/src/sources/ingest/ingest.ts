/**
 * Applies a pushed snapshot to the mirror: every row checked on its own, the good rows of each
 * entity written in one transaction (all of that entity's good rows or none), the derivation queued
 * with them (mirror/). A repeated id, or a repeated natural key (peers' torrent + peer_id + userid,
 * …) in one request: the last row wins, the earlier one is reported as rejected. A peer, snatch or claim
 * older than the mirror's (older.ts), or a peer, claim or torrent tag a later push deleted (deletions.ts), is
 * left out and counted; a time more than a day past the server's clock is not believed, as from NexusPHP (its
 * reader's checkSourceRows).
 */
import type { Kysely } from 'kysely'
import { fieldLabel, findLoneSurrogate, findNul, formatZodError, LONE_SURROGATE_MESSAGE, NUL_MESSAGE } from '@shared/validation'
import type { DB } from '../../db/schema'
import { yieldToEventLoop } from '../../db/sql-fragments'
import { AdminLock, lockFor } from '../../db/write-lock'
import { deleteMirror, uniqueKeys, upsertMirror, type MirrorRows, type MirrorTable } from '../mirror'
import { isSqlite } from '../mirror/upsert'
import { inTransaction } from '../mirror/rows'
import { checkSourceRows } from '../nexusphp/reader'
import { defaultTuning } from '../nexusphp/sync/state'
import { deletedMatches, forgetDeletions, rememberDeletions, remembersDeletions } from './deletions'
import { ageColumn, agedTable, olderIds, storedIsNewer } from './older'
import {
  deletableEntities,
  deletedIdSchema,
  ingestEntities,
  ingestRowSchemas,
  type DeletableEntity,
  type IngestEntity,
  type IngestSnapshot,
} from './schema'

export interface RejectedRow {
  /** The entity of a row, or `deleted.<entity>` for an id of `deleted` (`index`: its position in that array). */
  entity: IngestEntity | `deleted.${DeletableEntity}`
  /** Position of the row in its array (0-based). */
  index: number
  id: number | null
  reason: string
}

export interface IngestOutcome {
  /** Rows that passed the checks and are now in the mirror, per entity (unchanged rows included). */
  accepted: Record<IngestEntity, number>
  /** Good rows left out because the mirror holds a newer state of them (a replayed or late push). */
  ignoredOlder: Record<IngestEntity, number>
  /** Values not kept as sent (a time more than a day past the server's clock…): message → rows. */
  notes: Record<string, number>
  /** Rows that changed the mirror (a repeated push of the same rows writes nothing). */
  written: Record<IngestEntity, number>
  deleted: Record<(typeof deletableEntities)[number], number>
  rejected: RejectedRow[]
}

const deletableTables: Record<(typeof deletableEntities)[number], MirrorTable> = {
  peers: 'site_peers',
  claims: 'site_claims',
  torrent_tags: 'site_torrent_tags',
}

/** Rows checked between two turns of the event loop. */
const ROWS_PER_TURN = 1_000

/**
 * A NUL or a lone surrogate in any text of the row: neither database keeps what was sent (PostgreSQL
 * refuses a NUL, both write U+FFFD for a lone surrogate — and the same row pushed again would count as
 * a change every time), so the row is refused, as the API refuses such text.
 */
function refusedText(raw: unknown): string | null {
  const nul = findNul(raw)
  if (nul) return `${fieldLabel(nul)}：${NUL_MESSAGE}`
  const lone = findLoneSurrogate(raw)
  return lone ? `${fieldLabel(lone)}：${LONE_SURROGATE_MESSAGE}` : null
}

/** Rejected rows reported in one answer (a wholly wrong batch must not make a huge answer). */
export const MAX_REJECTED_REPORTED = 1_000

/** The well-formed ids of one `deleted` array; each other one is rejected on its own, as a bad row is. */
function checkedIds(entity: DeletableEntity, raw: readonly unknown[], reject: (row: RejectedRow) => void): number[] {
  const ids: number[] = []
  raw.forEach((value, index) => {
    const parsed = deletedIdSchema.safeParse(value)
    if (parsed.success) ids.push(parsed.data)
    else reject({ entity: `deleted.${entity}`, index, id: null, reason: formatZodError(parsed.error) })
  })
  return ids
}

/**
 * `now`: the server's clock (epoch ms), the reference for pushed times — a tracker's clock years
 * ahead must not keep its peers seeding until then (domain.md §5; NexusPHP's sync does the same
 * against the site's clock).
 */
export async function applySnapshot(
  db: Kysely<DB>,
  snapshot: IngestSnapshot,
  now: number,
): Promise<IngestOutcome & { rejectedTotal: number }> {
  const latest = now + defaultTuning.futureToleranceMs
  const accepted = {} as Record<IngestEntity, number>
  const ignoredOlder = {} as Record<IngestEntity, number>
  const notes: Record<string, number> = {}
  const written = {} as Record<IngestEntity, number>
  const rejected: RejectedRow[] = []
  let rejectedTotal = 0
  const reject = (row: RejectedRow) => {
    rejectedTotal++
    if (rejected.length < MAX_REJECTED_REPORTED) rejected.push(row)
  }

  for (const [entity, table] of ingestEntities) {
    accepted[entity] = 0
    ignoredOlder[entity] = 0
    written[entity] = 0
    const input = snapshot[entity]
    if (!input?.length) continue
    const schema = ingestRowSchemas[entity]
    const naturalKey = uniqueKeys[table]
    type Entry = { index: number; row: MirrorRows[MirrorTable] }
    const good = new Map<number, Entry>()
    const byKey = new Map<string, Entry>()
    // Checked a slice at a time: zod at ~20 µs a row held the event loop a second and more for a 50,000-row push.
    for (let index = 0; index < input.length; index++) {
      if (index > 0 && index % ROWS_PER_TURN === 0) await yieldToEventLoop()
      const raw = input[index]
      const rawId =
        typeof raw === 'object' && raw !== null && Number.isSafeInteger((raw as { id?: unknown }).id) ? (raw as { id: number }).id : null
      const refused = refusedText(raw)
      if (refused) {
        reject({ entity, index, id: rawId, reason: refused })
        continue
      }
      const parsed = schema.safeParse(raw)
      if (!parsed.success) {
        reject({ entity, index, id: rawId, reason: formatZodError(parsed.error) })
        continue
      }
      const row = parsed.data as MirrorRows[MirrorTable]
      const entry = { index, row }
      const sameId = good.get(row.id)
      if (sameId) reject({ entity, index: sameId.index, id: row.id, reason: `id 与第 ${index + 1} 行重复，以后者为准` })
      good.set(row.id, entry)
      if (!naturalKey) continue
      const key = JSON.stringify(naturalKey.map((column) => (row as Record<string, unknown>)[column]))
      const sameKey = byKey.get(key)
      byKey.set(key, entry)
      if (!sameKey || sameKey.row.id === row.id || good.get(sameKey.row.id) !== sameKey) continue
      good.delete(sameKey.row.id)
      reject({ entity, index: sameKey.index, id: sameKey.row.id, reason: `${naturalKey.join(' + ')} 与第 ${index + 1} 行相同，以后者为准` })
    }
    const pushed = [...good.values()].map((entry) => entry.row)
    if (!agedTable(table) && !remembersDeletions(table)) {
      checkSourceRows(table, pushed as never, { latest }, (message) => void (notes[message] = (notes[message] ?? 0) + 1))
      // In turn with other pushes too (the lock below): two pushes of the same torrents in another order each locked
      // rows the other was waiting for (PostgreSQL: a deadlock, one push 500 and half-written).
      written[entity] = await inTransaction(db, async (trx) => {
        await lockFor(trx, isSqlite(trx) ? 'sqlite' : 'postgres', AdminLock.ingest)
        return upsertMirror(trx, table, pushed as never)
      })
      accepted[entity] = pushed.length
      continue
    }
    // Pushes of these entities, and their deletions, take turns (PostgreSQL: a lock held to the commit): the rows are
    // judged — against what a later push deleted, and against the mirror's newer state — and written in one
    // transaction, so a push in flight can neither write a row another's delete has just removed nor one the other's
    // lookup has already judged against.
    const outcome = await inTransaction(db, async (trx) => {
      await lockFor(trx, isSqlite(trx) ? 'sqlite' : 'postgres', AdminLock.ingest)
      // A peer, claim or tag a later push deleted, sent again (a retry, a late batch): left out and counted (deletions.ts).
      const matches = remembersDeletions(table) ? await deletedMatches(trx, table, pushed, now) : null
      const rows = matches?.replayed.size ? pushed.filter((row) => !matches.replayed.has(row.id)) : pushed
      // Rows whose time the checks below will not believe: their age is told by their counters alone.
      const dated = agedTable(table) ? ageColumn(table) : null
      const disbelieved = new Set(
        dated ? rows.filter((row) => Number((row as Record<string, unknown>)[dated]) > latest).map((row) => row.id) : [],
      )
      checkSourceRows(table, rows, { latest }, (message) => void (notes[message] = (notes[message] ?? 0) + 1))
      let taken = 0
      // A row the site re-created under a new id replaces the stored one: remembered as deleted, as a pushed delete is
      // (a late push of the old row must not come back once the new one is deleted — an un-claim, a stop undone).
      const onReplaced = remembersDeletions(table)
        ? (inTrx: Kysely<DB>, ids: number[]) => rememberDeletions(inTrx, table, ids, now)
        : undefined
      if (!dated) {
        written[entity] = await upsertMirror(trx, table, rows as never, { onReplaced })
        taken = rows.length
      } else
        for (const countersOnly of [false, true]) {
          const group = rows.filter((row) => disbelieved.has(row.id) === countersOnly)
          if (!group.length) continue
          const older = await olderIds(trx, table, group, latest, countersOnly)
          const newer = group.filter((row) => !older.has(row.id))
          const keepStoredWhen = storedIsNewer(table, `"${table}"`, 'excluded', latest, countersOnly)
          written[entity] += await upsertMirror(trx, table, newer as never, { keepStoredWhen, onReplaced })
          taken += newer.length
        }
      if (matches?.revived.length && remembersDeletions(table)) await forgetDeletions(trx, table, matches.revived)
      return { taken, judged: pushed.length }
    })
    accepted[entity] = outcome.taken
    ignoredOlder[entity] = outcome.judged - outcome.taken
  }

  const deleted = {} as IngestOutcome['deleted']
  for (const entity of deletableEntities) {
    const ids = [...new Set(checkedIds(entity, snapshot.deleted?.[entity] ?? [], reject))]
    const table = deletableTables[entity]
    deleted[entity] = ids.length
      ? await inTransaction(db, async (trx) => {
          // In turn with the pushes of the entity (above): a push judged before this delete writes before it.
          await lockFor(trx, isSqlite(trx) ? 'sqlite' : 'postgres', AdminLock.ingest)
          if (remembersDeletions(table)) await rememberDeletions(trx, table, ids, now)
          return deleteMirror(trx, table, ids)
        })
      : 0
  }
  return { accepted, ignoredOlder, written, deleted, rejected, rejectedTotal, notes }
}
