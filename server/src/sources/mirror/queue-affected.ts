/**
 * What a mirror change concerns, queued for the derivation: the records of (member, torrent) a peer,
 * snatch or claim ties; the torrents of a team or tag (a rename can make them official or not).
 */
import { type Kysely, sql } from 'kysely'
import type { DB } from '../../db/schema'
import { inIntegers } from '../../db/sql-fragments'
import type { MirrorTable } from './columns'

/** Tables whose rows tie a site user to a torrent: [site uid column, torrent column]. */
export const pairColumns: Partial<Record<MirrorTable, readonly [string, string]>> = {
  site_peers: ['userid', 'torrent'],
  site_snatched: ['userid', 'torrentid'],
  site_claims: ['uid', 'torrent_id'],
}

/** A site user and a torrent, in site terms. */
export type Pair = { uid: number; torrent: number }

/** Queues (member, torrent) for pairs given in site terms; pairs of site users who are not members concern no record. */
export async function queueSitePairs(db: Kysely<DB>, pairs: readonly Pair[]): Promise<void> {
  const distinct = new Map<string, Pair>()
  for (const p of pairs) distinct.set(`${p.uid}:${p.torrent}`, p)
  const list = [...distinct.values()]
  for (let i = 0; i < list.length; i += 2_000) {
    const values = sql.join(list.slice(i, i + 2_000).map((p) => sql`(${sql.lit(p.uid)}, ${sql.lit(p.torrent)})`))
    await sql`with v (uid, torrent) as (values ${values})
      insert into derive_queue (user_id, torrent_id) select u.id, v.torrent from v join users u on u.site_uid = v.uid`.execute(db)
  }
}

/** Queues the torrents of teams or tags (a rename can make them official or not). */
export async function queueTorrentsOf(db: Kysely<DB>, table: 'site_teams' | 'site_tags', ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return
  const torrents =
    table === 'site_teams'
      ? sql`select id from site_torrents where ${inIntegers(sql.ref('team'), ids)}`
      : sql`select distinct torrent_id as id from site_torrent_tags where ${inIntegers(sql.ref('tag_id'), ids)}`
  await sql`insert into derive_queue (user_id, torrent_id) select cast(null as integer), t.id from (${torrents}) t`.execute(db)
}
