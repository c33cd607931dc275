/**
 * The demo source (SOURCE=demo): a generated community on first start (`bootstrapDemo`) that lives
 * on with every sync (`demoSource`). The same seed and clock give the same community.
 */
import { sql } from 'kysely'
import type { AppDatabase } from '../../db/database'
import { refreshPlannerStats, withDeferredIndexes } from '../../db/bulk'
import { acquireLease, type Lease } from '../../db/lease'
import { derive, type DeriveOutcome } from '../../derive'
import { localDay } from '../../domain/local-day'
import { readSourceState, writeSourceState } from '../../db/source-state'
import { currentRules, defaultRuleBody } from '../../rules/rules'
import { takeDailySnapshot } from '../../snapshots/write'
import { recordDailyStats } from '../../stats/daily'
import type { Source } from '../source'
import { advanceDemo, type DemoState } from './advance'
import { demoOfficialTeams, generateCommunity, officialDemoTags, type GeneratedCounts } from './generate'
import { synthesiseHistory } from './history'
import { demoScales, type DemoScale, type DemoSize } from './scale'

export const DEFAULT_DEMO_SEED = 'seeding-console-demo'

export interface DemoBootstrapOptions {
  size: DemoSize | DemoScale
  seed?: string
  now: number
  memberPasswordHash: string
  /** One per extra admin of the scale. */
  adminPasswordHashes: string[]
  /** Synthesise months of history (default true). */
  history?: boolean
  onStep?: (step: string, ms: number) => void
  /** The app clock, for the lease the first start holds (default Date.now). */
  clock?: () => number
}

export interface DemoBootstrapOutcome {
  counts: GeneratedCounts
  derive: DeriveOutcome
  records: number
  ms: number
}

/** Tables the first derivation fills: their secondary indexes are built after it. */
const derivedTables = ['seed_records', 'torrent_labels']
const plannerTables = [
  'site_torrents',
  'site_peers',
  'site_snatched',
  'site_claims',
  'assignments',
  'seed_records',
  'torrent_labels',
  'users',
]

/** What the first start writes, besides users: cleared when an earlier first start was cut short. */
const generatedTables = [
  'site_torrent_tags',
  'site_peers',
  'site_snatched',
  'site_claims',
  'site_torrents',
  'site_tags',
  'site_categories',
  'site_teams',
  'site_users',
  'assignments',
  'seed_records',
  'torrent_labels',
  'member_seed_stats',
  'seed_record_counts',
  'derive_queue',
  'counter_snapshots',
  'torrent_seeder_snapshots',
  'month_end_ties',
  'month_end_accounts',
  'record_first_counters',
  'record_rebases',
  'snatch_restarts',
  'assignment_counters',
  'daily_member_stats',
  'daily_team_stats',
  'stats_cache',
] as const

/** The source state while a first start runs: the users that existed before it (the initial admin). */
interface BootstrapMark {
  bootstrapUsersBefore?: number
}

/**
 * Generates the community when the mirror is empty; returns null (and does nothing) otherwise.
 * The first start is one unit: a mark is written before it and replaced by the demo's state at its
 * end, so a first start cut short (a crash, a kill) is found at the next start, what it wrote is
 * cleared, and the community is generated again — never left half imported.
 */
export async function bootstrapDemo(database: AppDatabase, options: DemoBootstrapOptions): Promise<DemoBootstrapOutcome | null> {
  // Every later start: nothing to do, and the sync lease is not touched — a holder that died (a sync killed) is the
  // restart's to find, which then syncs at once (clearDeadLease).
  if (!(await firstStartDue(database))) return null
  // Under the sync lease: processes started together on one new database (several behind a load balancer) take turns —
  // the first generates the community, the next find it; a mark found under the lease is a first start that died.
  const lease = await firstStartLease(database, options.clock ?? Date.now)
  try {
    return await bootstrapUnderLease(database, options)
  } finally {
    await lease?.release()
  }
}

/** The sync lease, waited for while another process holds it; null on a database without a sync state (bare tests). */
async function firstStartLease(database: AppDatabase, clock: () => number): Promise<Lease | null> {
  for (;;) {
    const lease = await acquireLease(database.db, { what: 'demo-first-start', clock })
    if (lease) return lease
    if (!(await database.db.selectFrom('sync_state').select('id').where('id', '=', 1).executeTakeFirst())) return null
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/** No community yet, or a first start's mark (one running, or cut short). */
async function firstStartDue({ db }: AppDatabase): Promise<boolean> {
  const mark = await readSourceState<BootstrapMark>(db)
  return mark.bootstrapUsersBefore !== undefined || !(await db.selectFrom('site_torrents').select('id').limit(1).executeTakeFirst())
}

async function bootstrapUnderLease(database: AppDatabase, options: DemoBootstrapOptions): Promise<DemoBootstrapOutcome | null> {
  const { db } = database
  const mark = await readSourceState<BootstrapMark>(db)
  if (mark.bootstrapUsersBefore !== undefined) await clearCutFirstStart(database, mark.bootstrapUsersBefore)
  else if (await db.selectFrom('site_torrents').select('id').limit(1).executeTakeFirst()) return null
  const usersBefore = Number((await sql<{ id: number | null }>`select max(id) as id from users`.execute(db)).rows[0]?.id ?? 0)
  await writeSourceState(db, { bootstrapUsersBefore: usersBefore } satisfies BootstrapMark)
  const started = performance.now()
  let stepStart = started
  const step = (name: string) => {
    const t = performance.now()
    options.onStep?.(name, Math.round(t - stepStart))
    stepStart = t
  }
  const scale = typeof options.size === 'string' ? demoScales[options.size] : options.size
  const seed = options.seed ?? DEFAULT_DEMO_SEED

  // The demo's release groups and tag are what makes a torrent official: rule version 1 says so,
  // unless an admin has already saved rules of their own.
  const rules = await currentRules(db)
  if (rules.version <= 1 && rules.officialTeams.length === 0 && rules.officialTags.length === 0) {
    const body = { ...defaultRuleBody, ...withoutVersion(rules), officialTeams: demoOfficialTeams, officialTags: officialDemoTags }
    await db
      .updateTable('rule_versions')
      .set({ rules: JSON.stringify(body) })
      .where('version', '=', 1)
      .execute()
  }
  const current = await currentRules(db)

  const counts = await generateCommunity(database, {
    scale,
    seed,
    now: options.now,
    memberPasswordHash: options.memberPasswordHash,
    adminPasswordHashes: options.adminPasswordHashes,
    activeWindowMinutes: current.activeWindowMinutes,
  })
  step('generate')
  await refreshPlannerStats(database, ['site_torrents', 'site_peers', 'site_snatched', 'site_claims', 'assignments', 'users'])
  const derived = await withDeferredIndexes(
    database,
    derivedTables,
    ['seed_records_user_torrent_key', 'seed_records_torrent_activity_idx'],
    () => derive(database, { now: options.now, full: true }),
  )
  step('derive')
  await refreshPlannerStats(database, plannerTables)
  step('analyze')

  if (options.history !== false) {
    await synthesiseHistory(database, { now: options.now, timeZone: current.timezone, days: scale.historyDays, seed })
  }
  await takeDailySnapshot(database, { now: options.now, timeZone: current.timezone })
  await recordDailyStats(db, localDay(options.now, current.timezone))
  step('history')

  const state: DemoState = { seed, size: typeof options.size === 'string' ? options.size : 'custom', syncs: 0, lastAdvanceAt: options.now }
  await writeSourceState(db, state)
  // The generation is the first sync: /data-sync shows what it wrote.
  const rows = {
    site_users: counts.siteUsers,
    site_torrents: counts.torrents,
    site_peers: counts.peers,
    site_snatched: counts.snatches,
    site_claims: counts.claims,
  }
  await db
    .updateTable('sync_state')
    .set({ last_finished_at: options.now, last_started_at: options.now, rows: JSON.stringify(rows) })
    .where('id', '=', 1)
    .execute()
  const records = Number((await sql<{ n: number }>`select count(*) as n from seed_records`.execute(db)).rows[0].n)
  return { counts, derive: derived, records, ms: Math.round(performance.now() - started) }
}

/** Removes what a first start cut short wrote: its users (those after `usersBefore`) and every generated table. */
async function clearCutFirstStart(database: AppDatabase, usersBefore: number): Promise<void> {
  await database.db.transaction().execute(async (trx) => {
    for (const table of generatedTables) await sql`delete from ${sql.table(table)}`.execute(trx)
    await sql`delete from sessions where user_id > ${usersBefore}`.execute(trx)
    await sql`delete from users where id > ${usersBefore}`.execute(trx)
  })
}

function withoutVersion<T extends { version: number }>(rules: T): Omit<T, 'version'> {
  const { version: _version, ...rest } = rules
  return rest
}

/** Each sync advances the community from the last sync's time to `now`. */
export function demoSource(): Source {
  return {
    kind: 'demo',
    async sync({ database, now, rules, progress }) {
      const stored = await readSourceState<DemoState>(database.db)
      // A database the demo did not generate (or one generated before this state existed): start the clock now.
      const state: DemoState = {
        seed: stored.seed ?? DEFAULT_DEMO_SEED,
        size: stored.size ?? 'default',
        syncs: stored.syncs ?? 0,
        lastAdvanceAt: stored.lastAdvanceAt ?? now,
      }
      const outcome = await advanceDemo(database, state, {
        now,
        activeWindowMinutes: rules.activeWindowMinutes,
        progress: (table, read) => progress({ table, read, total: null }),
      })
      await writeSourceState(database.db, outcome.state)
      return outcome.rows
    },
  }
}
