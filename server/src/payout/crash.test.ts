/**
 * A server process SIGKILLed at every step of a 200-member payout into a NexusPHP site, then
 * restarted: on InnoDB (one transaction per member) and on MyISAM (statement by statement, the credit
 * marked in users.bonuscomment by its own statement) every member ends paid exactly once, with one log
 * row and one message; with settleClaims, the claims' deduction is made exactly once and every claim
 * ends settled. On MyISAM a kill between noting a bonus change as sent and sending it leaves the member
 * 待核对 (never changed twice), settled once by the admin's 补发剩余部分. Runs when NEXUSPHP_TEST_DATABASE_URL is set.
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PayoutResult } from '@shared/payout'
import { currentRules, saveRules } from '../rules/rules'
import type { TestDatabase } from '../test/harness'
import { CLAIM_REMOVE_DEDUCT_TYPE } from './nexusphp-claims'
import { AFTER_MONTH, type WageMonth } from './testing/wage-month'
import { NexusSite, type SiteEngine } from './testing/nexus-site'
import { openSiteMonth } from './testing/site-month'
import { nexusphpPayoutService } from './testing/nexusphp-service'
import { creditTenths, formatTenths, parseTenths } from './tenths'

const serverUrl = process.env.NEXUSPHP_TEST_DATABASE_URL
const MEMBERS = 200
const child = fileURLToPath(new URL('./testing/payout-child.ts', import.meta.url))
const serverDir = fileURLToPath(new URL('../..', import.meta.url))
const startBonus = (uid: number) => `${uid}.5`

/** Children still running (killed after the tests should one hang). */
const running = new Set<ReturnType<typeof spawn>>()

/** Runs the child until it prints PAUSED (then SIGKILLs it) or DONE (its results). */
function runChild(file: string, writeUrl: string, pauseAt?: string): Promise<PayoutResult[] | 'killed'> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child, file, writeUrl, ...(pauseAt ? [pauseAt] : [])], {
      cwd: serverDir,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    running.add(proc)
    let out = ''
    let err = ''
    proc.stderr.on('data', (chunk) => (err += chunk))
    proc.stdout.on('data', (chunk) => {
      out += chunk
      if (out.includes('PAUSED\n')) proc.kill('SIGKILL')
    })
    proc.on('exit', (code, signal) => {
      running.delete(proc)
      if (signal === 'SIGKILL') return resolve('killed')
      const done = /^DONE (.*)$/m.exec(out)
      if (code === 0 && done) return resolve(JSON.parse(done[1]!) as PayoutResult[])
      reject(new Error(`payout child exited ${code}: ${err || out}`))
    })
  })
}

/** A NexusPHP site (its write account) and a database of ours holding a computed month of `count` members, each a site user. */
const stepsOf: Record<SiteEngine, string[]> = {
  InnoDB: ['begin', 'written', 'committed'],
  MyISAM: ['begin', 'noted', 'credited', 'logged', 'messaged'],
}

const admin = { id: 1, username: 'admin' }

/** The admin's 补发剩余部分 / 确认已到账 on one 待核对 record, in this process (as POST /wages/payout/resolve does). */
async function resolveInDoubt(db: TestDatabase, writerUrl: string, wageId: number, action: 'markDone' | 'payRest') {
  const service = nexusphpPayoutService(db, writerUrl, { clock: () => AFTER_MONTH })
  try {
    return await service.resolve(wageId, action, admin, '127.0.0.1')
  } finally {
    await service.close()
  }
}

describe.skipIf(!serverUrl).each(['InnoDB', 'MyISAM'] as SiteEngine[])('a payout killed at every step (%s)', (engine) => {
  let site: NexusSite
  let db: TestDatabase
  let month: WageMonth
  let writerUrl = ''

  beforeAll(async () => {
    ;({ site, writerUrl, db, month } = await openSiteMonth(serverUrl!, engine, { count: MEMBERS, bonus: startBonus, operator: admin }))
  }, 180_000)
  afterAll(async () => {
    for (const proc of running) proc.kill('SIGKILL')
    await db?.cleanup()
    await site?.drop()
  })

  it('restarted after each kill, ends with everyone paid exactly once', async () => {
    const file = db.config.database.kind === 'sqlite' ? db.config.database.file : ''
    // Each run goes a few members further before it is killed at the next step.
    let count = 3
    for (const step of stepsOf[engine]) {
      expect(await runChild(file, writerUrl, `${step}:${count}`)).toBe('killed')
      count += 4
    }
    const results = await runChild(file, writerUrl)
    expect(results).not.toBe('killed')
    const byWage = new Map((results as PayoutResult[]).map((r) => [r.wageId, r]))

    // MyISAM: the member killed after its credit was noted as sent, before the statement: nothing on the site says
    // whether it landed (its line could have been overwritten since), so it waits, uncredited, for the admin — never
    // credited again on its own. 补发剩余部分 then pays it, once.
    const inDoubt = [...byWage.values()].filter((r) => r.status === 'in_doubt')
    expect(inDoubt.map((r) => r.wageId)).toHaveLength(engine === 'MyISAM' ? 1 : 0)
    for (const result of inDoubt) {
      const uid = [...month.wages].find(([, wageId]) => wageId === result.wageId)![0]
      expect(await site.bonus(uid)).toBe(startBonus(uid))
      expect([(await site.logs(uid)).length, (await site.messages(uid)).length]).toEqual([0, 0])
      expect(await resolveInDoubt(db, writerUrl, result.wageId, 'payRest')).toMatchObject({ status: 'paid' })
      // A second 补发 (a double click, a retry) finds the entry settled.
      await expect(resolveInDoubt(db, writerUrl, result.wageId, 'payRest')).rejects.toThrow()
      byWage.set(result.wageId, { ...result, status: 'paid' })
    }

    for (const [uid, wageId] of month.wages) {
      const paid = formatTenths(parseTenths(startBonus(uid)) + creditTenths(month.amounts.get(uid)!))
      expect(await site.bonus(uid), `uid ${uid}`).toBe(paid)
      expect([(await site.logs(uid)).length, (await site.messages(uid)).length], `uid ${uid}`).toEqual([1, 1])
      expect(['paid', 'already'], `uid ${uid}`).toContain(byWage.get(wageId)!.status)
    }
    const ledger = await db.database.db.selectFrom('payout_ledger').select('state').execute()
    expect(ledger).toHaveLength(MEMBERS)
    expect(ledger.filter((e) => e.state === 'done')).toHaveLength(MEMBERS)
  }, 180_000)
})

const H = 3600
const GIB = 1024 ** 3
const CLAIM_MEMBERS = 24
const DEDUCTION = 6000n

/**
 * The same with `settleClaims`: every member has a claim reached since its begins and an old one never reached
 * (removed, 600 deducted). Killed at each step, claims steps included, then run to the end: each member credited once,
 * deducted once, every old unreached claim removed, every reached one begun again.
 */
describe.skipIf(!serverUrl).each(['InnoDB', 'MyISAM'] as SiteEngine[])('a payout settling claims killed at every step (%s)', (engine) => {
  let site: NexusSite
  let db: TestDatabase
  let month: WageMonth
  let writerUrl = ''
  const reached = new Map<number, number>()
  const unreached = new Map<number, number>()

  beforeAll(async () => {
    ;({ site, writerUrl, db, month } = await openSiteMonth(serverUrl!, engine, {
      count: CLAIM_MEMBERS,
      bonus: startBonus,
      operator: admin,
    }))
    const { version: _version, ...rules } = await currentRules(db.database.db)
    await saveRules(db.database.db, { ...rules, settleClaims: true }, AFTER_MONTH - 1000, null)
    for (const uid of month.wages.keys()) {
      const claim = { size: 10 * GIB, uploaded: 0, uploadedBegin: 0, createdAt: '2025-07-01 10:00:00' }
      reached.set(uid, await site.claim(uid, 10 * uid + 1, { ...claim, seedtime: 2000 * H, seedBegin: 1600 * H }))
      unreached.set(uid, await site.claim(uid, 10 * uid + 2, { ...claim, seedtime: 1010 * H, seedBegin: 1000 * H }))
    }
  }, 180_000)
  afterAll(async () => {
    for (const proc of running) proc.kill('SIGKILL')
    await db?.cleanup()
    await site?.drop()
  })

  it('restarted after each kill, ends with everyone credited once, deducted once, their claims settled', async () => {
    const file = db.config.database.kind === 'sqlite' ? db.config.database.file : ''
    const steps =
      engine === 'InnoDB' ? stepsOf.InnoDB : [...stepsOf.MyISAM, 'claims-restarted', 'claims-noted', 'claims-deducted', 'claims-logged']
    // Killed at the second member reaching each step: a member paid by an earlier run takes no step again.
    for (const step of steps) expect(await runChild(file, writerUrl, `${step}:2`), step).toBe('killed')
    const results = await runChild(file, writerUrl)
    expect(results).not.toBe('killed')
    // MyISAM: the two members killed after noting a bonus change as sent, before its statement (the credit; the
    // deduction) are 待核对 — the site cannot tell whether it landed — until the admin's 补发剩余部分 makes it, once.
    const inDoubt = (results as PayoutResult[]).filter((r) => r.status === 'in_doubt')
    expect(inDoubt).toHaveLength(engine === 'MyISAM' ? 2 : 0)
    for (const result of inDoubt) expect(await resolveInDoubt(db, writerUrl, result.wageId, 'payRest')).toMatchObject({ status: 'paid' })
    for (const result of results as PayoutResult[])
      if (result.status !== 'in_doubt') expect(['paid', 'already'], `wage ${result.wageId}`).toContain(result.status)

    for (const [uid] of month.wages) {
      const credited = parseTenths(startBonus(uid)) + creditTenths(month.amounts.get(uid)!)
      const bonus = parseTenths((await site.bonus(uid))!)
      const logs = await site.logs(uid)
      const deductions = logs.filter((l) => Number(l.business_type) === CLAIM_REMOVE_DEDUCT_TYPE)
      expect(logs.length - deductions.length, `uid ${uid}`).toBe(1)
      expect(deductions, `uid ${uid}`).toHaveLength(1)
      expect(formatTenths(bonus), `uid ${uid}`).toBe(formatTenths(credited - DEDUCTION))
      expect(await site.messages(uid), `uid ${uid}`).toHaveLength(1)
      const claims = await site.claims(uid)
      expect(
        claims.map((c) => Number(c.id)),
        `uid ${uid}`,
      ).toEqual([reached.get(uid)])
      expect(claims[0], `uid ${uid}`).toMatchObject({ seed_time_begin: String(2000 * H) })
      expect(claims[0]!.last_settle_at, `uid ${uid}`).not.toBeNull()
    }
  }, 300_000)
})
