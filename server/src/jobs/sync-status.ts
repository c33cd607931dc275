/**
 * What the sync job is doing (its status) and "sync now" from an admin.
 *
 * "Sync now" starts a run in the background and answers at once with the status (`running: true`):
 * a sync can take minutes, the client polls the status for its progress. Its failure is not the
 * caller's — it lands in sync_state.last_error, which the status shows. Asking while one runs
 * (here or in another process on the same database) starts nothing and answers the status too.
 */
import type { SyncSite, SyncStatus } from '@shared/entities'
import { sourceKindLabels } from '@shared/enums'
import type { AuthUser } from '../auth/sessions'
import { leaseIsLive } from '../db/lease'
import { toIso } from '../db/time'
import type { RequestContext } from '../http/endpoint'
import { OperationAction, recordOperation } from '../operation-log/record'
import { currentRules } from '../rules/rules'
import { siteWageDifferences } from '../rules/site-wage-differences'
import { zoneOffset } from '../sources/nexusphp/connection'
import type { SourceSite } from '../sources/source'

type Ctx = RequestContext<AuthUser>

/** `sync_state.rows` as stored (JSON of rows per table); anything unreadable shows as nothing. */
export function parseRows(json: string | null | undefined): Record<string, number> {
  if (!json) return {}
  try {
    const parsed: unknown = JSON.parse(json)
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {}
    const rows: Record<string, number> = {}
    for (const [table, value] of Object.entries(parsed)) {
      const n = Number(value)
      if (Number.isSafeInteger(n) && n >= 0) rows[table] = n
    }
    return rows
  } catch {
    return {}
  }
}

export async function readSyncStatus(ctx: Pick<Ctx, 'db' | 'services' | 'now'>): Promise<SyncStatus> {
  const runner = ctx.services.sync
  const state = await ctx.db
    .selectFrom('sync_state')
    .select(['lock_owner', 'lock_expires_at', 'last_started_at', 'last_finished_at', 'last_error', 'rows'])
    .where('id', '=', 1)
    .executeTakeFirst()
  // Another process on the same database holds the lease: a sync runs, just not ours. (A dead
  // holder's lease runs nothing: the next sync takes it over.)
  const leased = leaseIsLive(state?.lock_owner, state?.lock_expires_at, ctx.now)
  // NexusPHP: the zone its times are read in, and its own peer lifetime against the rules' window.
  const site = runner.site
  const num = (value: number | string | null | undefined) => (value === null || value === undefined ? null : Number(value))
  return {
    source: runner.sourceKind,
    running: runner.busy || leased,
    progress: runner.progress,
    lastStartedAt: toIso(num(state?.last_started_at)),
    lastFinishedAt: toIso(num(state?.last_finished_at)),
    lastError: state?.last_error ?? null,
    rows: parseRows(state?.rows),
    ...(site && { site: await siteStatus(ctx, site) }),
  }
}

/** The site part of the status: the source's reading of it against the current rules. */
async function siteStatus(ctx: Pick<Ctx, 'db' | 'now'>, site: SourceSite): Promise<SyncSite> {
  const rules = await currentRules(ctx.db)
  const wageDifferences = site.wage ? siteWageDifferences(site.wage, rules) : null
  // The wage month and its end snapshot go by the rules' zone; the site's times and its claim settlement by its own.
  // Compared now and in both halves of the year: zones that differ only under daylight saving differ all the same.
  const offsets = { site: zoneOffset(site.timeZone, ctx.now), rules: zoneOffset(rules.timezone, ctx.now) }
  const year = new Date(ctx.now).getUTCFullYear()
  const differ = [ctx.now, Date.UTC(year, 0, 15), Date.UTC(year, 6, 15)].some(
    (at) => zoneOffset(site.timeZone, at) !== zoneOffset(rules.timezone, at),
  )
  return {
    timeZone: site.timeZone,
    ...(differ && {
      zoneMismatch: { rulesTimeZone: rules.timezone, siteOffset: offsets.site, rulesOffset: offsets.rules },
    }),
    peerLifetimeMinutes: site.peerLifetimeMinutes,
    activeWindowMinutes: rules.activeWindowMinutes,
    ...(wageDifferences && { wageDifferences }),
    ...(site.dataNotes?.length && { dataNotes: site.dataNotes }),
  }
}

export async function startSync(ctx: Ctx): Promise<SyncStatus> {
  const before = await readSyncStatus(ctx)
  if (before.running) return before
  const runner = ctx.services.sync
  // Clicks that arrived together all read "not running" above: only the first to get here starts (and logs) one —
  // nothing is awaited between this check and runOnce(), which marks the runner busy before it returns.
  if (runner.busy) return readSyncStatus(ctx)
  // Not awaited: the answer goes out now; the status below already says running.
  runner.runOnce().then(
    (result) => {
      if (result.ran) ctx.log.info({ ms: result.ms, rows: result.rows }, 'sync (started by an admin) finished')
      else ctx.log.info('sync not started: another one holds the lease')
    },
    (error: unknown) => ctx.log.error({ err: error }, 'sync (started by an admin) failed'),
  )
  await recordOperation(
    ctx.db,
    {
      operator: ctx.user,
      action: OperationAction.RunSync,
      targetType: 'sync',
      detail: `立即同步（数据源：${sourceKindLabels[runner.sourceKind]}）`,
      ip: ctx.ip,
    },
    ctx.now,
  )
  return readSyncStatus(ctx)
}
