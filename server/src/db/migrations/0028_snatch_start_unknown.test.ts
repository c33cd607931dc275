/** Migration 0028: the starts the NexusPHP reader made up before 0.3.0 become unknown; real ones stay. */
import { Migrator } from 'kysely/migration'
import { afterEach, describe, expect, it } from 'vitest'
import { openTestDatabases, type TestDatabase } from '../../test/harness'
import { migrateToLatest } from '../migrate'
import { migrationsFor } from './index'

const LAST = Date.UTC(2026, 9, 20, 8)
const DAY = 86_400_000

describe.each(openTestDatabases())('migration 0028 on $name', (backend) => {
  let opened: TestDatabase | undefined
  afterEach(async () => {
    await opened?.cleanup()
    opened = undefined
  })

  const snatch = (id: number, startdat: number) => ({ id, torrentid: id, userid: 1001, last_action: LAST, startdat })

  for (const source of ['nexusphp', 'demo'])
    it(`on a mirror of ${source}`, async () => {
      opened = await backend.open()
      const migrations = migrationsFor(backend.name)
      const migrator = new Migrator({ db: opened.database.db, provider: { getMigrations: async () => migrations } })
      expect((await migrator.migrateTo('0027_payout_credit_sent')).error).toBeUndefined()
      const { db } = opened.database
      await db.insertInto('sync_state').values({ id: 1, source }).execute()
      // Made up by the old reader (its last announce), a real start, an unknown one.
      await db
        .insertInto('site_snatched')
        .values([snatch(1, LAST), snatch(2, LAST - 30 * DAY), snatch(3, 0)])
        .execute()
      await migrateToLatest(opened.database)
      const rows = await db.selectFrom('site_snatched').select(['id', 'startdat']).orderBy('id').execute()
      expect(rows.map((r) => [Number(r.id), Number(r.startdat)])).toEqual([
        [1, source === 'nexusphp' ? 0 : LAST],
        [2, LAST - 30 * DAY],
        [3, 0],
      ])
    })
})
