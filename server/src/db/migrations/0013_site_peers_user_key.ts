/**
 * The mirror's peers keyed as NexusPHP keys them since its 2023-04 migration: unique on
 * (torrent, peer_id, userid). Two members whose clients announce one peer_id on one torrent are two
 * peers at the site, both seeding; keyed on (torrent, peer_id) the mirror kept one of them, and which
 * one changed from sync to sync (a member's status, the keepers and the completion label with it).
 * Widening a key cannot fail on the rows already there.
 */
import { type Kysely, sql } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'

export default function migration(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.dropIndex('site_peers_torrent_peer_key').ifExists().execute()
      await db.schema
        .createIndex('site_peers_torrent_peer_user_key')
        .on('site_peers')
        .columns(['torrent', 'peer_id', 'userid'])
        .unique()
        .execute()
    },
    async down(db: Kysely<any>) {
      // Back to one peer per (torrent, peer_id): of the rows sharing it, the newest stays.
      await db.schema.dropIndex('site_peers_torrent_peer_user_key').ifExists().execute()
      await sql`delete from site_peers where id not in (select max(id) from site_peers group by torrent, peer_id)`.execute(db)
      await db.schema.createIndex('site_peers_torrent_peer_key').on('site_peers').columns(['torrent', 'peer_id']).unique().execute()
    },
  }
}
