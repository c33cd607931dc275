/**
 * What the NexusPHP scenario suites share (site-scenarios, site-data): each scenario runs on every
 * console database × both site shapes, builds a throw-away site the way NexusPHP writes it, runs a
 * console on SOURCE=nexusphp against it, and reads the statuses it derived. Call `scenarioKit()` at the
 * top of a test file: it registers the cleanup after each test.
 */
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { afterEach } from 'vitest'
import { type Config, loadConfig } from '../../../config'
import type { AppDatabase } from '../../../db/database'
import { defaultRuleBody, saveRules } from '../../../rules/rules'
import { buildTestApp, openTestDatabases, type TestDatabase } from '../../../test/harness'
import { pendingWageEstimates } from '../../../wages/estimates'
import { fixtureShapes, NexusFixture, type FixtureShape } from './fixture'

export const serverUrl = process.env.NEXUSPHP_TEST_DATABASE_URL

/** Every console database with each site shape: a v1.6 install and a migrated InnoDB one. */
export const siteCombinations = openTestDatabases().flatMap((backend) =>
  fixtureShapes.map((shape) => ({ backend, shape, name: `${backend.name}, ${shape} site` })),
)
type Backend = (typeof siteCombinations)[number]['backend']

/** "username:torrent" → status. */
export async function statuses(db: AppDatabase): Promise<Record<string, number>> {
  const { rows } = await sql<{ username: string; torrent_id: number; status: number }>`select u.username, r.torrent_id, r.status
    from seed_records r join users u on u.id = r.user_id order by u.username, r.torrent_id`.execute(db.db)
  return Object.fromEntries(rows.map((r) => [`${r.username}:${r.torrent_id}`, Number(r.status)]))
}

export function scenarioKit() {
  const cleanups: (() => Promise<unknown>)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {})
  })
  return {
    cleanups,
    /** A throw-away site of `shape`, dropped after the test. */
    async site(shape: FixtureShape, options: { timeZone?: string } = {}): Promise<NexusFixture> {
      const fixture = await NexusFixture.create(serverUrl!, { shape, ...options })
      cleanups.push(() => fixture.drop())
      return fixture
    },
    /**
     * A console on SOURCE=nexusphp, its settings as loadConfig reads them from `env`, with rules naming
     * the official team CMCT; without the wage engine (the scenarios are about the mirror and statuses).
     */
    async console_(backend: Backend, env: Record<string, string>): Promise<{ db: TestDatabase; app: FastifyInstance }> {
      const db = await backend.open()
      cleanups.push(() => db.cleanup())
      const nexusphp: Config['nexusphp'] = loadConfig({ SOURCE: 'nexusphp', ...env }).nexusphp
      const app = await buildTestApp({
        database: db.database,
        config: { ...db.config, source: 'nexusphp', nexusphp },
        wages: pendingWageEstimates,
      })
      cleanups.push(() => app.close())
      await saveRules(db.database.db, { ...defaultRuleBody, officialTeams: ['CMCT'], targetKeepers: 2 }, Date.UTC(2025, 0, 1), null)
      return { db, app }
    },
  }
}
