/**
 * stats_cache.revision: raised by every refresh of a row. The dashboard's busiest call reads this
 * number and answers from the figures it parsed last while the number is unchanged, instead of reading
 * and comparing the whole payload per call; the refresh's time and data version alone could repeat
 * (two refreshes in one millisecond, or a frozen clock, between two derivations).
 */
import { sql, type Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'

export default function migration(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await sql`alter table stats_cache add column revision integer not null default 0`.execute(db)
    },
    async down(db: Kysely<any>) {
      await sql`alter table stats_cache drop column revision`.execute(db)
    },
  }
}
