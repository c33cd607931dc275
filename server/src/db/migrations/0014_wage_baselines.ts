/**
 * Wage counting windows and baselines (domain.md §4, issue 11 item 1; issue 16 item 1):
 *
 * - `record_first_counters`: each seed record's counters when the server first saw it. A record
 *   missing from its window's start snapshot (a member added mid-month, a new install, a late first
 *   sync) counts from here — never from 0, which paid a member's whole history.
 * - `assignment_counters`: a record's counters at the first sync after an assignment began, the
 *   baseline of a mid-month assignment's window.
 * - `wage_records.partial`: 1 when a member's baseline was a first observation (部分月份).
 *
 * Existing records: those not in the latest month-start snapshot take the earliest later snapshot
 * that has them, else their counters now (the best the server knows of their first observation).
 */
import { type Kysely, sql } from 'kysely'
import type { Migration } from 'kysely/migration'
import type { DialectName } from '../database'
import { epochMs, notNull } from './helpers'

export default function migration(dialect: DialectName): Migration {
  const pg = dialect === 'postgres'
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('record_first_counters')
        .addColumn('record_id', 'integer', (col) => col.primaryKey())
        .addColumn('seen_at', epochMs, notNull)
        .addColumn('seed_time_sec', 'bigint', notNull)
        .addColumn('uploaded', 'bigint', notNull)
        .modifyEnd(pg ? sql`` : sql`without rowid`)
        .execute()
      await db.schema
        .createTable('assignment_counters')
        .addColumn('record_id', 'integer', notNull)
        .addColumn('assigned_at', epochMs, notNull)
        .addColumn('seed_time_sec', 'bigint', notNull)
        .addColumn('uploaded', 'bigint', notNull)
        .addPrimaryKeyConstraint('assignment_counters_pk', ['record_id', 'assigned_at'])
        .modifyEnd(pg ? sql`` : sql`without rowid`)
        .execute()
      await db.schema
        .alterTable('wage_records')
        .addColumn('partial', 'smallint', (col) => col.notNull().defaultTo(0))
        .execute()

      const now = Date.now()
      // The latest month's first snapshot (normally the 1st; the first day the server ran otherwise).
      const last = await sql<{ d: number | null }>`select max(day) as d from counter_snapshots`.execute(db)
      const lastDay = last.rows[0]?.d == null ? null : Number(last.rows[0].d)
      let monthStart: number | null = null
      if (lastDay !== null) {
        const first = await sql<{
          d: number
        }>`select min(day) as d from counter_snapshots where day >= ${Math.floor(lastDay / 100) * 100}`.execute(db)
        monthStart = Number(first.rows[0]!.d)
      }
      if (monthStart !== null) {
        const later = await sql<{ day: number }>`select distinct day from counter_snapshots where day > ${monthStart} order by day`.execute(
          db,
        )
        for (const { day } of later.rows) {
          await sql`insert into record_first_counters (record_id, seen_at, seed_time_sec, uploaded)
            select s.record_id, ${now}, s.seed_time_sec, s.uploaded from counter_snapshots s
            where s.day = ${Number(day)} and not exists (select 1 from counter_snapshots m where m.day = ${monthStart} and m.record_id = s.record_id)
            on conflict do nothing`.execute(db)
        }
      }
      await sql`insert into record_first_counters (record_id, seen_at, seed_time_sec, uploaded)
        select r.id, ${now}, r.seed_time_sec, r.uploaded from seed_records r
        where ${monthStart === null ? sql`true` : sql`not exists (select 1 from counter_snapshots m where m.day = ${monthStart} and m.record_id = r.id)`}
        on conflict do nothing`.execute(db)
      // The watermark of later syncs is the highest record id seen (ids are never reused).
      await sql`insert into record_first_counters (record_id, seen_at, seed_time_sec, uploaded)
        select r.id, ${now}, r.seed_time_sec, r.uploaded from seed_records r where r.id = (select max(id) from seed_records)
        on conflict do nothing`.execute(db)
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable('wage_records').dropColumn('partial').execute()
      await db.schema.dropTable('assignment_counters').execute()
      await db.schema.dropTable('record_first_counters').execute()
    },
  }
}
