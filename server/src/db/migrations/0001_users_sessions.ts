/** Members and admins, their sessions, and the operation log. */
import { type Kysely, sql } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'
import { epochMs, notNull, withId } from './helpers'

export default function migration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('users'), dialect)
        .addColumn('username', 'text', notNull)
        .addColumn('username_lower', 'text', (col) => col.notNull().unique())
        .addColumn('password_hash', 'text', notNull)
        .addColumn('role', 'text', (col) => col.notNull().check(sql`role in ('admin', 'normal')`))
        .addColumn('status', 'smallint', (col) => col.notNull().check(sql`status in (0, 1, 2)`))
        .addColumn('site_uid', 'integer')
        .addColumn('remark', 'text', (col) => col.notNull().defaultTo(''))
        .addColumn('created_at', epochMs, notNull)
        .addColumn('admin_since', epochMs)
        .addColumn('last_login_at', epochMs)
        .addColumn('updated_at', epochMs, notNull)
        .execute()
      await db.schema.createIndex('users_role_idx').on('users').columns(['role', 'status']).execute()
      await db.schema.createIndex('users_site_uid_idx').on('users').column('site_uid').execute()

      await withId(db.schema.createTable('sessions'), dialect, 'bigint')
        .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (col) => col.notNull().unique())
        .addColumn('created_at', epochMs, notNull)
        .addColumn('last_seen_at', epochMs, notNull)
        .addColumn('expires_at', epochMs, notNull)
        .addColumn('revoked_at', epochMs)
        .addColumn('ip', 'text', (col) => col.notNull().defaultTo(''))
        .addColumn('user_agent', 'text', (col) => col.notNull().defaultTo(''))
        .execute()
      await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute()
      await db.schema.createIndex('sessions_expires_idx').on('sessions').column('expires_at').execute()

      await withId(db.schema.createTable('operation_log'), dialect, 'bigint')
        .addColumn('at', epochMs, notNull)
        // No foreign key: the log outlives anything it mentions and must never block a change.
        .addColumn('operator_id', 'integer')
        .addColumn('operator_name', 'text', notNull)
        .addColumn('action', 'text', notNull)
        .addColumn('target_type', 'text', (col) => col.notNull().defaultTo(''))
        .addColumn('target_id', 'text')
        .addColumn('detail', 'text', (col) => col.notNull().defaultTo(''))
        .addColumn('ip', 'text', (col) => col.notNull().defaultTo(''))
        .execute()
      await db.schema.createIndex('operation_log_at_idx').on('operation_log').column('at').execute()
      await db.schema.createIndex('operation_log_operator_idx').on('operation_log').columns(['operator_id', 'at']).execute()
      await db.schema.createIndex('operation_log_action_idx').on('operation_log').columns(['action', 'at']).execute()
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('operation_log').execute()
      await db.schema.dropTable('sessions').execute()
      await db.schema.dropTable('users').execute()
    },
  }
}
