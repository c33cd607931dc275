/**
 * The site's id of each claim kept at a month's end (month_end_ties.claim_id): two members' claims of one torrent made
 * in the same second are ranked by it (NexusPHP's created_at has whole seconds; wages/reader.ts sameSecondClaims). A
 * closed month read the order from the claims there now: one of the two given up after the month — or a member's site
 * UID changed — and regenerating the month swapped the keepers' ranks and their pay. Rows kept before: null (such a
 * month reads the claims there now, as before).
 */
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'

export default function migration(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('month_end_ties').addColumn('claim_id', 'bigint').execute()
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('month_end_ties').dropColumn('claim_id').execute()
    },
  }
}
