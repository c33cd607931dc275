/**
 * The seeding-data measurements (page-seed, statistics, derivation), through the real HTTP path (a listening server, fetch with
 * keep-alive, login, the contract's validation, JSON both ways): page-seed in four shapes, the
 * statistics refresh, a full derivation pass (steady, and after a rules change), and one sync.
 */
import { sql } from 'kysely'
import type { RunningServer } from '../server/src/server'
import { derive } from '../server/src/derive'
import { currentRules, saveRules } from '../server/src/rules/rules'
import { time, type Timing } from './measure'
import { login } from './server-process'

export interface CaseResult {
  name: string
  description: string
  timing: Timing
  /** `total` of the last answer (what the case matched). */
  total: number | null
  target: number | null
}

export interface BenchResults {
  pageSeed: CaseResult[]
  refresh: CaseResult
  derivation: { name: string; description: string; seconds: number; judged: number; changed: number; target: number | null }[]
}

async function call<T>(server: RunningServer, token: string, method: 'GET' | 'POST', path: string, body?: object): Promise<T> {
  const res = await fetch(server.apiBase + path, {
    method,
    headers: { 'access-token': token, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  const envelope = (await res.json()) as { code: number; msg: string; data: T }
  if (envelope.code !== 200) throw new Error(`${path}: ${envelope.code} ${envelope.msg}`)
  return envelope.data
}

export const PAGE_SEED_TARGET_MS = 50
export const REFRESH_TARGET_MS = 2000
export const DERIVATION_TARGET_S = 30
/** One scheduled (10-minute) sync of the large demo, whole: issue 14. */
export const SYNC_TARGET_S = 20

export async function runBenchmarks(server: RunningServer, options: { n: number; log: (line: string) => void }): Promise<BenchResults> {
  const { n, log } = options
  const token = await login(server.apiBase)
  const { database } = server.app.services
  const { db } = database

  // Inputs that vary per request, so no answer is a repeat of the one before.
  const members = (
    await sql<{ user_id: number }>`select user_id from seed_record_counts where status = 3 and user_id > 0
      group by user_id order by sum(records) desc limit ${n}`.execute(db)
  ).rows.map((r) => r.user_id)
  const titles = (
    await sql<{ name: string }>`select name from site_torrents where id % 997 = 0 order by id limit ${n}`.execute(db)
  ).rows.map((r) => r.name.split(/[. ](?:19|20)\d\d/)[0].slice(0, 24))

  // Every call reads its page: a new data version (as after a derivation) before each one empties the
  // answer and count caches, which would otherwise answer a repeated request from memory.
  const newDataVersion = async () => {
    await sql`update sync_state set data_version = data_version + 1 where id = 1`.execute(db)
  }
  const pageSeed = async (name: string, description: string, body: (i: number) => object): Promise<CaseResult> => {
    let total: number | null = null
    const timing = await time(
      n,
      5,
      async (i) => {
        total = (await call<{ total: number }>(server, token, 'POST', '/user/page-seed', body(i))).total
      },
      newDataVersion,
    )
    log(`  page-seed ${name}: p50 ${timing.p50.toFixed(2)} ms, p95 ${timing.p95.toFixed(2)} ms (total ${total})`)
    return { name, description, timing, total, target: PAGE_SEED_TARGET_MS }
  }

  const results: BenchResults = { pageSeed: [], refresh: undefined as never, derivation: [] }
  results.pageSeed.push(
    await pageSeed('no filter, uploaded DESC', 'page 1 × 20, `orderBy: "uploaded DESC"`, no filter (admin)', () => ({
      page: 1,
      pageSize: 20,
      orderBy: 'uploaded DESC',
    })),
    await pageSeed(
      'status=3 + userId',
      'page 1 × 20, `status: 3`, `userId` cycling over the 50 members with most seeding records',
      (i) => ({
        page: 1,
        pageSize: 20,
        status: 3,
        userId: members[i % members.length],
      }),
    ),
    await pageSeed(
      'torrentName contains',
      'page 1 × 20, `torrentName` = a title from the data (50 different ones, e.g. "' + titles[0] + '"), each total counted exactly',
      (i) => ({
        page: 1,
        pageSize: 20,
        torrentName: titles[i % titles.length],
      }),
    ),
    await pageSeed('deep page 5,000', 'page 5,000 × 20 (offset 99,980), `orderBy: "uploaded DESC"`', () => ({
      page: 5000,
      pageSize: 20,
      orderBy: 'uploaded DESC',
    })),
    await pageSeed('torrentName broad ("1080p")', 'extra: a name matching ~45% of the torrents, page 1 × 20', () => ({
      page: 1,
      pageSize: 20,
      torrentName: '1080p',
    })),
    await pageSeed('torrentName 2 characters ("长安")', 'extra: too short for trigrams (the names are scanned), page 1 × 20', () => ({
      page: 1,
      pageSize: 20,
      torrentName: '长安',
    })),
    await pageSeed(
      'member view (userId, lastAction DESC)',
      'extra: 我的任务 as a member sees it — own records, newest activity first, cycling members',
      (i) => ({
        page: 1,
        pageSize: 20,
        userId: members[i % members.length],
        orderBy: 'lastAction DESC',
      }),
    ),
    await pageSeed('status=7, deep page 2,000, lastAction DESC', 'extra: filter + sort + offset 39,980', () => ({
      page: 2000,
      pageSize: 20,
      status: 7,
      orderBy: 'lastAction DESC',
    })),
  )

  const refreshTiming = await time(Math.min(n, 20), 2, async () => {
    await call(server, token, 'GET', '/statistics/refresh-index-statistics-cache')
  })
  log(`  statistics refresh: p50 ${refreshTiming.p50.toFixed(1)} ms, p95 ${refreshTiming.p95.toFixed(1)} ms`)
  results.refresh = {
    name: 'refresh-index-statistics-cache',
    description: 'GET, recomputes and stores the dashboard figures',
    timing: refreshTiming,
    total: null,
    target: REFRESH_TARGET_MS,
  }

  // Derivation: judged at the last sync time, so time alone changes nothing.
  const state = await db.selectFrom('sync_state').select(['derived_at']).executeTakeFirstOrThrow()
  const at = Number(state.derived_at)
  /** `target`: the "full derivation ≤ 30 s" is the steady full pass; the rules-change passes are extras. */
  const pass = async (
    name: string,
    description: string,
    run: () => ReturnType<typeof derive>,
    target: number | null = DERIVATION_TARGET_S,
  ) => {
    const started = performance.now()
    const outcome = await run()
    const seconds = (performance.now() - started) / 1000
    log(`  ${name}: ${seconds.toFixed(1)} s (judged ${outcome.judged}, changed ${outcome.changed})`)
    results.derivation.push({ name, description, seconds, judged: outcome.judged, changed: outcome.changed, target })
  }
  await pass('full pass, nothing changed', 're-judges every record and torrent; writes only what differs (here: nothing)', () =>
    derive(database, { now: at, full: true }),
  )
  const rules = await currentRules(db)
  const { version: _v, ...body } = rules
  await saveRules(db, { ...body, officialTeams: body.officialTeams.slice(1) }, at, null)
  await pass(
    `full pass after a rules change`,
    `official team "${rules.officialTeams[0]}" removed: a new rule version, so every record is re-judged and its torrents' records change seed type`,
    () => derive(database, { now: at }),
    null,
  )
  await saveRules(db, body, at, null)
  await pass('full pass, rules changed back', 'the previous rules as a new version', () => derive(database, { now: at }), null)

  // Scheduled syncs: the demo advances, then the incremental derivation, the day's aggregates and the
  // statistics cache. Ten minutes is the scheduler's interval (the issue's ≤ 20 s); after an hour's pause
  // every active peer has announced at least once — the every-record case, kept as a stress line.
  const syncAfter = async (minutes: number, name: string, description: string, target: number | null) => {
    const started = performance.now()
    const sync = await server.app.services.sync.runOnce(at + minutes * 60_000)
    const seconds = (performance.now() - started) / 1000
    if (!sync.ran) throw new Error(`${name}: the sync did not run (${sync.reason})`)
    log(`  ${name}: ${seconds.toFixed(1)} s (judged ${sync.derive.judged}, changed ${sync.derive.changed})`)
    results.derivation.push({ name, description, seconds, judged: sync.derive.judged, changed: sync.derive.changed, target })
  }
  await syncAfter(
    10,
    'one sync, incremental',
    "the demo advances 10 minutes — peers announce at NexusPHP's intervals (30–60 min by the torrent's age), so a sixth to a third of them grow; peers stop and start, a few new torrents — then the incremental pass, snapshot check, daily aggregates and statistics",
    SYNC_TARGET_S,
  )
  await syncAfter(
    70,
    "one sync after an hour's pause",
    'extra: the demo advances 60 minutes, so every active peer has announced since the last sync (the every-record case)',
    null,
  )
  return results
}
