/**
 * Rule versions (`Rules` in docs/api.md): what makes a torrent official and how wages are computed.
 * Every change creates a new version; whatever used a version (a derivation pass, a wage record)
 * stores its number, so results can be explained and reproduced. Version 1 holds the defaults
 * below and is created at first start.
 */
import type { Kysely } from 'kysely'
import { defaultRuleBody, ruleBodyAsStored, ruleBodySchema, type RuleBody, type Rules } from '@shared/entities'
import type { DB } from '../db/schema'

// The schema is the contract's (src/shared/entities.ts): the same limits and Chinese field names
// on the rules form, in POST /config/rules and when a stored version is read back.
export { defaultRuleBody, ruleBodySchema }
export type { RuleBody, Rules }

export const GIB = 1024 ** 3

function parseVersion(row: { version: number; rules: string }): Rules {
  // Stored rules were validated on the way in; defaults fill fields added by later versions of the code.
  // A version saved under looser limits than today's still reads (as stored) rather than breaking every caller.
  const merged = { ...defaultRuleBody, ...JSON.parse(row.rules) } as RuleBody
  const parsed = ruleBodySchema.safeParse(merged)
  return { version: row.version, ...(parsed.success ? parsed.data : merged) }
}

/** The newest rule version. Version 1 exists once the app has started (`ensureInitialRules`). */
export async function currentRules(db: Kysely<DB>): Promise<Rules> {
  const row = await db.selectFrom('rule_versions').select(['version', 'rules']).orderBy('version', 'desc').limit(1).executeTakeFirst()
  if (!row) return { version: 0, ...defaultRuleBody }
  return parseVersion(row)
}

export async function ruleVersion(db: Kysely<DB>, version: number): Promise<Rules | null> {
  const row = await db.selectFrom('rule_versions').select(['version', 'rules']).where('version', '=', version).executeTakeFirst()
  return row ? parseVersion(row) : null
}

/** Creates version 1 with the defaults when there is no version yet (first start; safe to race). */
export async function ensureInitialRules(db: Kysely<DB>, now: number): Promise<void> {
  await db
    .insertInto('rule_versions')
    .values({ version: 1, rules: JSON.stringify(defaultRuleBody), created_at: now, created_by: null })
    .onConflict((oc) => oc.column('version').doNothing())
    .execute()
}

/**
 * Saves `body` as the next version and returns it. Given a transaction, writes inside it (so the
 * caller can log the change in the same transaction); concurrent savers must be serialised by the
 * caller on PostgreSQL (the version number is max + 1).
 */
export async function saveRules(db: Kysely<DB>, body: RuleBody, now: number, by: number | null): Promise<Rules> {
  const parsed = ruleBodyAsStored(ruleBodySchema.parse(body))
  const write = async (trx: Kysely<DB>) => {
    const last = await trx.selectFrom('rule_versions').select('version').orderBy('version', 'desc').limit(1).executeTakeFirst()
    const version = (last?.version ?? 0) + 1
    await trx
      .insertInto('rule_versions')
      .values({ version, rules: JSON.stringify(parsed), created_at: now, created_by: by })
      .execute()
    return { version, ...parsed }
  }
  return db.isTransaction ? write(db) : db.transaction().execute(write)
}

/**
 * The rules are the preset 「NexusPHP 认领结算」: only claimed torrents count, computed as NexusPHP
 * settles claims (wages/nexusphp-parity.test.ts).
 */
export const isNexusphpClaims = (rules: Pick<RuleBody, 'mode'>): boolean => rules.mode === 'nexusphpClaims'
