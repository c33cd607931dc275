/** Migration 0025: a claim's begins from before its first settlement, as the mirror writer's upserts meet them. */
import { afterEach, describe, expect, it } from 'vitest'
import { type MirrorRows, upsertMirror } from '../../sources/mirror'
import { openTestDatabases, type TestDatabase } from '../../test/harness'
import { migrateToLatest } from '../migrate'

const H = 3600
const MAR_10 = Date.UTC(2026, 2, 10, 4)
const APR_1 = Date.UTC(2026, 2, 31, 16)
const MAY_1 = Date.UTC(2026, 3, 30, 16)

describe.each(openTestDatabases())('migration 0025 on $name', (backend) => {
  let opened: TestDatabase | undefined
  afterEach(async () => {
    await opened?.cleanup()
    opened = undefined
  })

  const claim = (over: Partial<MirrorRows['site_claims']> = {}): MirrorRows['site_claims'] => ({
    id: 7,
    uid: 1001,
    torrent_id: 1,
    snatched_id: null,
    seed_time_begin: 100 * H,
    uploaded_begin: 5,
    last_settle_at: null,
    created_at: MAR_10,
    updated_at: MAR_10,
    ...over,
  })

  it('keeps the begins a claim had before its first settlement; later settlements and plain corrections leave them', async () => {
    opened = await backend.open()
    await migrateToLatest(opened.database)
    const { db } = opened.database
    const kept = () => db.selectFrom('claim_first_begins').selectAll().execute()

    await upsertMirror(db, 'site_claims', [claim()])
    // A source correcting what it sent is no settlement: the claim's own values stand.
    await upsertMirror(db, 'site_claims', [claim({ seed_time_begin: 101 * H })])
    expect(await kept()).toEqual([])
    // NexusPHP's cron on April 1st, then on May 1st.
    await upsertMirror(db, 'site_claims', [
      claim({ seed_time_begin: 500 * H, uploaded_begin: 9, last_settle_at: APR_1, updated_at: APR_1 }),
    ])
    await upsertMirror(db, 'site_claims', [
      claim({ seed_time_begin: 800 * H, uploaded_begin: 12, last_settle_at: MAY_1, updated_at: MAY_1 }),
    ])
    expect(await kept()).toEqual([{ claim_id: 7, created_at: MAR_10, seed_time_begin: 101 * H, uploaded_begin: 5 }])

    // The site deleted the claim and a new one took its id (a restarted InnoDB reuses the highest id): the new claim's own, once settled.
    const reclaimed = MAY_1 + 86_400_000
    await upsertMirror(db, 'site_claims', [
      claim({ seed_time_begin: 900 * H, uploaded_begin: 20, created_at: reclaimed, updated_at: reclaimed }),
    ])
    const jun1 = Date.UTC(2026, 4, 31, 16)
    await upsertMirror(db, 'site_claims', [
      claim({ seed_time_begin: 1200 * H, uploaded_begin: 30, last_settle_at: jun1, created_at: reclaimed, updated_at: jun1 }),
    ])
    expect(await kept()).toEqual([{ claim_id: 7, created_at: reclaimed, seed_time_begin: 900 * H, uploaded_begin: 20 }])
  })
})
