/**
 * Paying wages into the site (domain.md §7, src/payout).
 *
 * - `payout_ledger`: one row per wage record, written before the site is touched. `ledger_key` is
 *   carried by the site's rows (the bonus log comment, the message, the webhook's Idempotency-Key),
 *   so a retry after a crash can see what landed. `state`: pending → done | in_doubt | failed; the
 *   evidence columns hold what was read back from the site.
 * - `payout_webhook_deliveries`: every POST to PAYOUT_WEBHOOK_URL and its answer (ingest sites).
 * - `payout_demo_bonus` / `payout_demo_logs`: the demo source's simulated site (its members' bonus,
 *   its bonus log and messages), so paying can be tried on first run.
 */
import { type Kysely, sql } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'
import { epochMs, notNull, withId } from './helpers'

export default function migration(dialect: DialectName): Migration {
  const real = dialect === 'postgres' ? 'double precision' : 'real'
  return {
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('payout_ledger'), dialect)
        .addColumn('wage_id', 'integer', notNull)
        .addColumn('ledger_key', 'text', notNull)
        .addColumn('period', 'text', notNull)
        .addColumn('user_id', 'integer', notNull)
        .addColumn('site_uid', 'integer')
        /** nexusphp | demo | webhook */
        .addColumn('target', 'text', notNull)
        /** What the site is credited: the wage rounded to the site's one decimal. */
        .addColumn('amount', real, notNull)
        .addColumn('state', 'text', (col) => col.notNull().check(sql`state in ('pending', 'done', 'in_doubt', 'failed')`))
        /** Why the entry is failed / in doubt / still pending (Chinese, shown on the result table). */
        .addColumn('reason', 'text')
        .addColumn('bonus_before', 'text')
        .addColumn('bonus_after', 'text')
        .addColumn('log_id', 'bigint')
        .addColumn('message_id', 'bigint')
        .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('next_attempt_at', epochMs)
        .addColumn('created_at', epochMs, notNull)
        .addColumn('created_by_id', 'integer')
        .addColumn('created_by_name', 'text', notNull)
        .addColumn('updated_at', epochMs, notNull)
        .addColumn('done_at', epochMs)
        .addColumn('settled_by_name', 'text')
        .execute()
      await db.schema.createIndex('payout_ledger_wage_key').on('payout_ledger').column('wage_id').unique().execute()
      await db.schema.createIndex('payout_ledger_key_key').on('payout_ledger').column('ledger_key').unique().execute()
      await db.schema.createIndex('payout_ledger_state_idx').on('payout_ledger').columns(['state', 'target']).execute()

      await withId(db.schema.createTable('payout_webhook_deliveries'), dialect)
        .addColumn('ledger_id', 'integer', notNull)
        .addColumn('at', epochMs, notNull)
        .addColumn('status', 'integer')
        .addColumn('error', 'text')
        .execute()
      await db.schema.createIndex('payout_webhook_deliveries_ledger_idx').on('payout_webhook_deliveries').column('ledger_id').execute()

      await db.schema
        .createTable('payout_demo_bonus')
        .addColumn('uid', 'integer', (col) => col.primaryKey())
        /** Tenths of a point, as NexusPHP's decimal(…,1). */
        .addColumn('bonus_tenths', 'bigint', notNull)
        .execute()
      await withId(db.schema.createTable('payout_demo_logs'), dialect)
        .addColumn('uid', 'integer', notNull)
        .addColumn('ledger_key', 'text', notNull)
        .addColumn('old_tenths', 'bigint', notNull)
        .addColumn('value_tenths', 'bigint', notNull)
        .addColumn('new_tenths', 'bigint', notNull)
        .addColumn('comment', 'text', notNull)
        .addColumn('subject', 'text', notNull)
        .addColumn('msg', 'text', notNull)
        .addColumn('at', epochMs, notNull)
        .execute()
      await db.schema.createIndex('payout_demo_logs_key_key').on('payout_demo_logs').column('ledger_key').unique().execute()
    },
    async down(db: Kysely<any>) {
      for (const table of ['payout_demo_logs', 'payout_demo_bonus', 'payout_webhook_deliveries', 'payout_ledger'])
        await db.schema.dropTable(table).ifExists().execute()
    },
  }
}
