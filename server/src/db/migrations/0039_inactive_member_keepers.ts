/**
 * A member banned or deleted here who keeps seeding is 5 无工资 now, claimed or not, uploader or not (docs/domain.md §2,
 * domain/status.ts): until now only a claimed record was, so an unclaimed one (4) or an uploaded one (6) still counted among
 * the torrent's keepers — 首页's completion and 自动分配 took the torrent as kept by a member who had left the team.
 *
 * Stored statuses and keepers change only where a pass judges them: the next derivation judges everything.
 */
import { type Kysely, sql } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'

export default function migration(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await sql`update sync_state set derived_rules_version = null`.execute(db)
    },
    // The next full pass judges by whichever rule the code then holds; nothing to undo.
    async down() {},
  }
}
