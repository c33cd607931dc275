/**
 * Site users by name: the member form looks up the site's users by a part of their name (or their
 * uid) as the admin types, over a mirror of 100,000+ users. The lookup asks for names that START
 * with the text first — this index answers that as a range scan, in name order — and only fills
 * the rest of its 20 with names that merely contain the text (a scan that stops at 20 matches).
 *
 * - SQLite: `username COLLATE NOCASE`; SQLite's LIKE is case-insensitive (ASCII) and uses such an
 *   index for a `LIKE 'prefix%'` pattern, bound parameter included.
 * - PostgreSQL: `lower(username) text_pattern_ops`; `lower(username) LIKE 'prefix%'` uses it
 *   whatever the database's collation.
 */
import { type Kysely, sql } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'

export default function migration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect === 'postgres')
        await sql`create index site_users_username_prefix_idx on site_users (lower(username) text_pattern_ops)`.execute(db)
      else await sql`create index site_users_username_prefix_idx on site_users (username collate nocase)`.execute(db)
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('site_users_username_prefix_idx').execute()
    },
  }
}
