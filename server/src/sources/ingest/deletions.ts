/**
 * What a push deleted, kept a week: a retried or late push — sent before the delete — must not write back a peer,
 * claim or torrent tag a later push deleted (an un-claim undone for good; a stopped client seeding again until it
 * ages out; an old claim replacing the member's re-claim of the torrent; a removed tag keeping a torrent official).
 * A deletion is dated by when it arrived, or by the deleted row's own time (a peer's last_action, a claim's
 * updated_at) where that is later (a tracker's clock ahead of ours): a pushed row of that id is a replay when its time
 * is not after that — a row sent before the delete, even one newer than the mirror's copy (its push timed out); a
 * later one is the site's and taken (a MEMORY peers table reuses ids after a restart).
 * A torrent tag has no time: NexusPHP writes a tag put back as a new row, so a deleted id pushed again for the same
 * torrent and tag is a replay, and for another the site's new row (ids reused after a restart of an older MySQL). An
 * id deleted before any push of it reached us (the add and the delete out of order) is a replay however it comes.
 */
import { type Kysely, sql } from 'kysely'
import type { DB } from '../../db/schema'
import type { AnyRow } from '../mirror/rows'
import type { MirrorTable } from '../mirror'

/** A tag row as one number: its torrent and tag (tag ids are small; a safe integer for any torrent id). */
const tagKey = (row: AnyRow) => Number(row.torrent_id) * 2_097_152 + (Number(row.tag_id) % 2_097_152)
/** The stamp of a deleted tag id the mirror never held: whatever comes under that id later is the add sent before. */
const TAG_NEVER_HELD = -1

/** Per table whose deletions are kept: the stamp of a deleted row, and when a pushed row is its replay. */
const judged = {
  site_peers: {
    columns: ['last_action'],
    stamp: (row: AnyRow | undefined, now: number) => Math.max(Number(row?.last_action ?? 0), now),
    replays: (pushed: AnyRow, stamp: number) => Number(pushed.last_action) <= stamp,
  },
  site_claims: {
    columns: ['updated_at'],
    stamp: (row: AnyRow | undefined, now: number) => Math.max(Number(row?.updated_at ?? 0), now),
    replays: (pushed: AnyRow, stamp: number) => Number(pushed.updated_at) <= stamp,
  },
  site_torrent_tags: {
    columns: ['torrent_id', 'tag_id'],
    stamp: (row: AnyRow | undefined) => (row ? tagKey(row) : TAG_NEVER_HELD),
    replays: (pushed: AnyRow, stamp: number) => stamp === TAG_NEVER_HELD || tagKey(pushed) === stamp,
  },
} as const
type Remembered = keyof typeof judged

/** How long a deletion is kept: far longer than a push is ever retried. */
export const DELETION_MEMORY_MS = 7 * 86_400_000
const CHUNK = 1_000

export function remembersDeletions(table: MirrorTable): table is Remembered {
  return Object.hasOwn(judged, table)
}

/** Notes the deletion of `ids` (before they are deleted: a stored row's own time or torrent and tag count), and forgets old ones. */
export async function rememberDeletions(trx: Kysely<DB>, table: Remembered, ids: readonly number[], now: number): Promise<void> {
  await trx
    .deleteFrom('ingest_deletions')
    .where('deleted_at', '<', now - DELETION_MEMORY_MS)
    .execute()
  const { columns, stamp } = judged[table]
  for (let i = 0; i < ids.length; i += CHUNK) {
    const part = ids.slice(i, i + CHUNK)
    const { rows } = await sql<AnyRow>`select id, ${sql.join(columns.map((c) => sql.ref(c)))} from ${sql.table(
      table,
    )} where id in (${sql.join(part.map((id) => sql.lit(id)))})`.execute(trx)
    const stored = new Map(rows.map((r) => [Number(r.id), r]))
    await trx
      .insertInto('ingest_deletions')
      .values(part.map((id) => ({ table_name: table, row_id: id, stamp: stamp(stored.get(id), now), deleted_at: now })))
      .onConflict((oc) =>
        oc
          .columns(['table_name', 'row_id'])
          .doUpdateSet((eb) => ({ stamp: eb.ref('excluded.stamp'), deleted_at: eb.ref('excluded.deleted_at') })),
      )
      .execute()
  }
}

/**
 * Splits pushed rows of a deleted id: `replayed` (not after the deletion: left out) and `revived` (the site's later
 * row of that id: taken, and its deletion forgotten by forgetDeletions).
 */
export async function deletedMatches(
  db: Kysely<DB>,
  table: Remembered,
  rows: readonly AnyRow[],
  now: number,
): Promise<{ replayed: Set<number>; revived: number[] }> {
  const replayed = new Set<number>()
  const revived: number[] = []
  const { replays } = judged[table]
  for (let i = 0; i < rows.length; i += CHUNK) {
    const part = rows.slice(i, i + CHUNK)
    const found = await db
      .selectFrom('ingest_deletions')
      .select(['row_id', 'stamp'])
      .where('table_name', '=', table)
      // Kept a week: an older one is forgotten though no push has deleted anything since to clear it.
      .where('deleted_at', '>=', now - DELETION_MEMORY_MS)
      .where(
        'row_id',
        'in',
        part.map((row) => row.id as number),
      )
      .execute()
    if (!found.length) continue
    const stampOf = new Map(found.map((r) => [Number(r.row_id), Number(r.stamp)]))
    for (const row of part) {
      const stamp = stampOf.get(row.id as number)
      if (stamp === undefined) continue
      if (replays(row, stamp)) replayed.add(row.id as number)
      else revived.push(row.id as number)
    }
  }
  return { replayed, revived }
}

export async function forgetDeletions(db: Kysely<DB>, table: Remembered, ids: readonly number[]): Promise<void> {
  for (let i = 0; i < ids.length; i += CHUNK)
    await db
      .deleteFrom('ingest_deletions')
      .where('table_name', '=', table)
      .where('row_id', 'in', ids.slice(i, i + CHUNK))
      .execute()
}
