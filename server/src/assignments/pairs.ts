/** Writing assignment pairs: existing ones are left alone, new ones queued for the derivation in the same transaction. */
import type { Kysely } from 'kysely'
import type { AuthUser } from '../auth/sessions'
import type { DB } from '../db/schema'
import { queuePairs } from '../derive/queue'
import type { RequestContext } from '../http/endpoint'
import { chunks } from '../util/chunks'
import { CHUNK } from './targets'

export type Ctx = RequestContext<AuthUser>
export interface Pair {
  torrentId: number
  userId: number
}

/** Inserts `pairs` by `ctx.user` at `ctx.now`; answers the pairs that were new. */
export async function insertPairs(trx: Kysely<DB>, pairs: readonly Pair[], ctx: Ctx): Promise<Pair[]> {
  const created: Pair[] = []
  for (const part of chunks(pairs, CHUNK)) {
    const rows = await trx
      .insertInto('assignments')
      .values(part.map((p) => ({ torrent_id: p.torrentId, user_id: p.userId, assigned_at: ctx.now, assigned_by: ctx.user.id })))
      .onConflict((oc) => oc.columns(['user_id', 'torrent_id']).doNothing())
      .returning(['torrent_id', 'user_id'])
      .execute()
    for (const r of rows) created.push({ torrentId: r.torrent_id, userId: r.user_id })
  }
  await queuePairs(trx, created)
  return created
}
