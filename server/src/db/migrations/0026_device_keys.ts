/**
 * `device_keys`: the login's device keys (auth/device-keys.ts, the OWASP "device cookie"). A right password
 * gives the client a random key; a login that brings it back is exempt from the account-wide lock of the login
 * limiter, so a guesser who keeps an account locked does not lock out its owner's app when their home address
 * changes. Only the key's sha256 is kept, with its user and when it was last used.
 */
import type { Kysely } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'
import { epochMs, notNull, withId } from './helpers'

export default function migration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('device_keys'), dialect, 'bigint')
        .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('key_hash', 'text', (col) => col.notNull().unique())
        .addColumn('last_used_at', epochMs, notNull)
        .execute()
      await db.schema.createIndex('device_keys_user_idx').on('device_keys').columns(['user_id', 'last_used_at']).execute()
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('device_keys').execute()
    },
  }
}
