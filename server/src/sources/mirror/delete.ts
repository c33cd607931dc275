/** Deletes from the mirror by `id`, queueing what the deleted rows affected first. */
import { type Kysely, sql } from 'kysely'
import type { DB } from '../../db/schema'
import { inIntegers } from '../../db/sql-fragments'
import { queueTorrents } from '../../derive/queue'
import type { MirrorTable } from './columns'
import { pairColumns, queueTorrentsOf } from './queue-affected'
import { inTransaction } from './rows'

/** Deletes rows by `id`, queueing what they affected first. Returns the rows deleted. */
export async function deleteMirror(db: Kysely<DB>, table: MirrorTable, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0
  for (const id of ids) if (!Number.isSafeInteger(id)) throw new Error(`${table}: id is not an integer: ${String(id)}`)
  return inTransaction(db, async (trx) => {
    let deleted = 0
    for (let i = 0; i < ids.length; i += 5_000) deleted += await deleteChunk(trx, table, ids.slice(i, i + 5_000))
    return deleted
  })
}

export async function deleteChunk(db: Kysely<DB>, table: MirrorTable, ids: readonly number[]): Promise<number> {
  const pairCols = pairColumns[table]
  const idIn = (column: string) => inIntegers(sql.ref(column), ids)
  if (pairCols) {
    const [uid, torrent] = pairCols.map((c) => sql.ref(c))
    await sql`insert into derive_queue (user_id, torrent_id)
      select distinct u.id, x.${torrent} from ${sql.table(table)} x join users u on u.site_uid = x.${uid} where ${idIn('x.id')}`.execute(db)
  } else if (table === 'site_torrents') {
    await queueTorrents(db, ids)
  } else if (table === 'site_torrent_tags') {
    await sql`insert into derive_queue (user_id, torrent_id) select distinct cast(null as integer), torrent_id from site_torrent_tags where ${idIn('id')}`.execute(
      db,
    )
  } else if (table === 'site_teams' || table === 'site_tags') {
    await queueTorrentsOf(db, table, ids)
  }
  const result = await sql`delete from ${sql.table(table)} where ${idIn('id')}`.execute(db)
  return Number(result.numAffectedRows ?? 0)
}
