/**
 * Snatches the NexusPHP source mirrored before 0.3.0 with a zero or NULL `startdat` (v1.6 trackers, old imports)
 * were given their last announce as start. 0.3.0 reads such a start as unknown (0, sources/nexusphp/reader.ts), but a
 * row the site has not changed since is not read again, and the wages take a snatch "begun" inside the month as
 * counted from 0 — its whole history paid. Those rows are set to unknown here. A start equal to the last announce
 * can also be a snatch announced once and never again (its counters ~0): unknown costs it nothing.
 */
import { type Kysely, sql } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'

export default function migration(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await sql`update site_snatched set startdat = 0
        where startdat = last_action and startdat > 0
          and exists (select 1 from sync_state where id = 1 and source = 'nexusphp')`.execute(db)
    },
    // The old starts are not known any more; unknown is what the current reader writes for them anyway.
    async down() {},
  }
}
