/**
 * SQLite: the torrent-name search follows a rename only when the name really changed. An `after
 * update of name` trigger fires whenever `name` is in the SET list, and the mirror's upsert sets every
 * column of a changed torrent: each sync's seeder counts re-indexed the names of ~2,000 torrents in the
 * trigram index (a delete and an insert each). PostgreSQL's name index is an ordinary GIN index.
 */
import { type Kysely, sql } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'

export default function migration(dialect: DialectName): Migration {
  const trigger = (when: string) =>
    sql.raw(`create trigger site_torrents_name_fts_au after update of name on site_torrents ${when}begin
      insert into site_torrents_name_fts(site_torrents_name_fts, rowid, name) values ('delete', old.id, old.name);
      insert into site_torrents_name_fts(rowid, name) values (new.id, new.name);
    end`)
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'sqlite') return
      await sql`drop trigger if exists site_torrents_name_fts_au`.execute(db)
      await trigger('when old.name is not new.name ').execute(db)
    },
    async down(db: Kysely<any>) {
      if (dialect !== 'sqlite') return
      await sql`drop trigger if exists site_torrents_name_fts_au`.execute(db)
      await trigger('').execute(db)
    },
  }
}
