/**
 * Which target a payout lands on, from the configuration: the NexusPHP write account when set, else
 * the ingest site's webhook, else (demo) the demo's own simulated site; otherwise paying is off and
 * the reason says which setting is missing.
 */
import type { Config } from '../config'
import type { AppDatabase } from '../db/database'
import { demoTarget } from './demo-target'
import { nexusphpWriter } from './nexusphp-writer'
import type { PayoutTarget, StepHook } from './target'
import { webhookTarget } from './webhook'

export interface TargetOptions {
  database: AppDatabase
  config: Config
  clock: () => number
  /** Test hook: each step of a member's payout on the NexusPHP site. */
  onStep?: StepHook
  /** Test hook: the NexusPHP site was checked (begin), no entry opened yet. */
  onBegun?: () => Promise<void>
  /** Webhook retry pauses (tests shorten them). */
  webhookBackoffMs?: number
}

export function chooseTarget(options: TargetOptions): { target: PayoutTarget | null; reason: string | null } {
  const { config } = options
  const { writeDatabaseUrl, webhookUrl, webhookSecret } = config.payout
  if (writeDatabaseUrl)
    return {
      target: nexusphpWriter({
        databaseUrl: writeDatabaseUrl,
        timezone: config.nexusphp.timezone,
        onStep: options.onStep,
        onBegun: options.onBegun,
      }),
      reason: null,
    }
  if (webhookUrl && webhookSecret) {
    return {
      target: webhookTarget(options.database.db, {
        url: webhookUrl,
        secret: webhookSecret,
        backoffMs: options.webhookBackoffMs,
        clock: options.clock,
      }),
      reason: null,
    }
  }
  if (config.source === 'demo') return { target: demoTarget(options.database.db, options.database.dialect), reason: null }
  if (config.source === 'ingest')
    return { target: null, reason: '未设置 PAYOUT_WEBHOOK_URL 和 PAYOUT_WEBHOOK_SECRET，发放到站点未开启（见 README「发放到站点」）' }
  return { target: null, reason: '未设置 NEXUSPHP_WRITE_DATABASE_URL，发放到站点未开启（见 README「发放到站点」）' }
}
