/**
 * How writers tell the derivation what changed: a row in `derive_queue`, written in the same
 * transaction as the change. (member, torrent) re-judges one record; (member, null) all of a
 * member's (status or site uid changed); (null, torrent) a torrent's labels, and its records when
 * its seed type, size or owner changed (torrent row, tags, manual override).
 */
import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { DB } from '../db/schema'

const CHUNK = 500

export async function queuePairs(db: Kysely<DB>, pairs: readonly { userId: number; torrentId: number }[]): Promise<void> {
  for (let i = 0; i < pairs.length; i += CHUNK) {
    await db
      .insertInto('derive_queue')
      .values(pairs.slice(i, i + CHUNK).map((p) => ({ user_id: p.userId, torrent_id: p.torrentId })))
      .execute()
  }
}

export async function queueMembers(db: Kysely<DB>, userIds: readonly number[]): Promise<void> {
  for (let i = 0; i < userIds.length; i += CHUNK) {
    await db
      .insertInto('derive_queue')
      .values(userIds.slice(i, i + CHUNK).map((id) => ({ user_id: id, torrent_id: null })))
      .execute()
  }
}

export async function queueTorrents(db: Kysely<DB>, torrentIds: readonly number[]): Promise<void> {
  for (let i = 0; i < torrentIds.length; i += CHUNK) {
    await db
      .insertInto('derive_queue')
      .values(torrentIds.slice(i, i + CHUNK).map((id) => ({ user_id: null, torrent_id: id })))
      .execute()
  }
}

/**
 * Set-based form for sources: queues the pairs of the site rows a query selects, given as
 * `(userid, torrent)` in site terms (site uid, torrent id). Rows of site users who are not members
 * concern no record and are skipped.
 */
export async function queueSiteRows(db: Kysely<DB>, siteRows: RawBuilder<unknown>): Promise<void> {
  await sql`insert into derive_queue (user_id, torrent_id)
    select u.id, x.torrent from (${siteRows}) x join users u on u.site_uid = x.userid`.execute(db)
}
