/**
 * What a push deleted, kept a week: a retried or late push — sent before the delete — must not write back a peer,
 * claim or torrent tag a later push deleted (an un-claim undone for good; a stopped client seeding again until it
 * ages out; an old claim replacing the member's re-claim of the torrent; a removed tag keeping a torrent official).
 * A pushed row of a deleted id is a replay when its own time (a peer's last_action, a claim's updated_at) is not
 * after the deleted row's; a later one is the site's and taken (a MEMORY peers table reuses ids after a restart).
 * A torrent tag has no time: NexusPHP writes a tag put back as a new row, so a deleted id pushed again for the same
 * torrent is a replay, and for another torrent the site's new row (ids reused after a restart of an older MySQL).
 */
import { type Kysely, sql } from 'kysely'
import type { DB } from '../../db/schema'
import type { AnyRow } from '../mirror/rows'
import type { MirrorTable } from '../mirror'

/** Per table whose deletions are kept: the column kept of the deleted row, and when a pushed row is its replay. */
const judged = {
  site_peers: { column: 'last_action', replays: (pushed: number, deleted: number) => pushed <= deleted },
  site_claims: { column: 'updated_at', replays: (pushed: number, deleted: number) => pushed <= deleted },
  site_torrent_tags: { column: 'torrent_id', replays: (pushed: number, deleted: number) => pushed === deleted },
} as const
type Remembered = keyof typeof judged

/** How long a deletion is kept: far longer than a push is ever retried. */
export const DELETION_MEMORY_MS = 7 * 86_400_000
const CHUNK = 1_000

export function remembersDeletions(table: MirrorTable): table is Remembered {
  return Object.hasOwn(judged, table)
}

/** Notes the deletion of `ids` (before they are deleted: a stored row's own time or torrent is kept), and forgets old ones. */
export async function rememberDeletions(trx: Kysely<DB>, table: Remembered, ids: readonly number[], now: number): Promise<void> {
  await trx
    .deleteFrom('ingest_deletions')
    .where('deleted_at', '<', now - DELETION_MEMORY_MS)
    .execute()
  const { column } = judged[table]
  for (let i = 0; i < ids.length; i += CHUNK) {
    const part = ids.slice(i, i + CHUNK)
    const { rows } = await sql<{ id: number | string; stamp: number | string }>`select id, ${sql.ref(column)} as stamp from ${sql.table(
      table,
    )} where id in (${sql.join(part.map((id) => sql.lit(id)))})`.execute(trx)
    const stamps = new Map(rows.map((r) => [Number(r.id), Number(r.stamp)]))
    await trx
      .insertInto('ingest_deletions')
      .values(part.map((id) => ({ table_name: table, row_id: id, stamp: stamps.get(id) ?? now, deleted_at: now })))
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
): Promise<{ replayed: Set<number>; revived: number[] }> {
  const replayed = new Set<number>()
  const revived: number[] = []
  const { column, replays } = judged[table]
  for (let i = 0; i < rows.length; i += CHUNK) {
    const part = rows.slice(i, i + CHUNK)
    const found = await db
      .selectFrom('ingest_deletions')
      .select(['row_id', 'stamp'])
      .where('table_name', '=', table)
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
      if (replays(Number(row[column]), stamp)) replayed.add(row.id as number)
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
