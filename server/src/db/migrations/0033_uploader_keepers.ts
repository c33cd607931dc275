/**
 * A member who uploaded a torrent (status 6 发布者) and seeds it now counts among its keepers (docs/domain.md §3,
 * domain/status.ts `keeperSql`): the site counts her client in `seeders` like any other peer. Until now keepers
 * were records of status 3 or 4 only, so an official torrent kept by its uploader and one other member showed
 * keepers 1 (缺保种) against a target of 2, and auto-assign sent it more members.
 *
 * Stored keepers move by deltas in an incremental pass and are recounted only by a full one: the next derivation
 * judges everything, so every torrent's keepers and completion label are counted by the new rule.
 */
import { type Kysely, sql } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'

export default function migration(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await sql`update sync_state set derived_rules_version = null`.execute(db)
    },
    // The next full pass counts by whichever rule the code then holds; nothing to undo.
    async down() {},
  }
}
