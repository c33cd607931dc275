/**
 * Login attempts judged or being judged (issue 16): the login limiter keeps its counts here rather
 * than in memory, so that several server processes on one database share one limit and a restart
 * does not forgive a guesser. Rows older than the limiter's window are deleted as it goes.
 */
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'
import { epochMs, notNull, withId } from './helpers'

export default function migration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('login_attempts'), dialect, 'bigint')
        // What is counted: one (username, IP) pair or one IP (see auth/login-limiter.ts).
        .addColumn('scope', 'text', notNull)
        .addColumn('at', epochMs, notNull)
        .execute()
      await db.schema.createIndex('login_attempts_scope_idx').on('login_attempts').columns(['scope', 'at']).execute()
      await db.schema.createIndex('login_attempts_at_idx').on('login_attempts').column('at').execute()
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('login_attempts').execute()
    },
  }
}
