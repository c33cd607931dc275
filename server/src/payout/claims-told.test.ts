/**
 * On a MyISAM site the member's message (with its claims note) is written before the claims are settled, and what it
 * tells is noted on the ledger entry first (payout_ledger.claims_plan). An attempt cut after the message is finished by
 * the next one as the message told — the same claims removed, the same deduction, once — even when the per-claim
 * deduction was changed meanwhile, the site deleted a claimed torrent, 发放时结算认领 was switched off (which used
 * to leave the deduction never taken, or taken with the claims left to be charged again), or the site's tables were
 * converted to InnoDB since. Runs when
 * NEXUSPHP_TEST_DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { currentRules, saveRules, type RuleBody } from '../rules/rules'
import type { TestDatabase } from '../test/harness'
import { CLAIM_REMOVE_DEDUCT_TYPE } from './nexusphp-claims'
import { ROLE_WORK_SALARY } from './nexusphp-rows'
import { wageDb } from '../wages/tables'
import { payoutKit } from './testing/kit'
import { openSiteMonth } from './testing/site-month'
import { NexusSite } from './testing/nexus-site'
import { AFTER_MONTH, type WageMonth } from './testing/wage-month'
import { formatTenths, parseTenths } from './tenths'

const serverUrl = process.env.NEXUSPHP_TEST_DATABASE_URL
const operator = { id: 1, username: 'admin' }
const H = 3600
const GIB = 1024 ** 3
const START = '1000.0'

describe.skipIf(!serverUrl)('a MyISAM payout cut after its message settles the claims as the message told', () => {
  let site: NexusSite
  let db: TestDatabase
  let month: WageMonth
  let writerUrl = ''
  const { service, wage, credit, entry, closeServices } = payoutKit(() => ({ db, writerUrl, month }))
  const unreached = {
    size: 10 * GIB,
    seedtime: 1010 * H,
    uploaded: 0,
    seedBegin: 1000 * H,
    uploadedBegin: 0,
    createdAt: '2025-07-01 10:00:00',
  }

  beforeAll(async () => {
    ;({ site, writerUrl, db, month } = await openSiteMonth(serverUrl!, 'MyISAM', { count: 1, bonus: () => START, operator }))
    const { version: _v, ...rules } = await currentRules(db.database.db)
    await saveRules(db.database.db, { ...rules, settleClaims: true, claimRemoveDeduction: 600 }, AFTER_MONTH - 1000, null)
  })
  afterAll(async () => {
    await closeServices()
    await db?.cleanup()
    await site?.drop()
  })

  /** A payout of 1001 cut at `step` (its writer's connections killed), after old unreached claims of `torrents`: the bonus it credited. */
  async function paidAndCutAt(step: string, torrents: number[]): Promise<bigint> {
    for (const torrent of torrents) await site.claim(1001, torrent, unreached)
    const cutting = service({ onStep: async (at) => void (at === step && (await site.killWriters())) })
    await cutting.run({ ids: [wage(1001)] }, operator, '127.0.0.1')
    return parseTenths(START) + credit(1001)
  }

  /** 1001 from a clean slate: its site rows, ledger entry and payment undone; settleClaims on, 600 per claim. */
  async function freshMember(): Promise<void> {
    for (const table of ['claims', 'bonus_logs', 'messages']) await site.conn.query(`DELETE FROM ${table}`)
    await site.conn.query('UPDATE users SET seedbonus = ?, bonuscomment = NULL WHERE id = 1001', [START])
    await db.database.db.deleteFrom('payout_ledger').execute()
    await wageDb(db.database.db)
      .updateTable('wage_records')
      .set({ payment: 0, paid_at: null, paid_by_id: null, paid_by_name: null })
      .execute()
    await setRules({ settleClaims: true, claimRemoveDeduction: 600 })
  }
  let rulesAt = AFTER_MONTH - 900
  async function setRules(change: Partial<RuleBody>): Promise<void> {
    const { version: _v, ...rules } = await currentRules(db.database.db)
    await saveRules(db.database.db, { ...rules, ...change }, rulesAt++, null)
  }

  it('the deduction changed and a torrent deleted between the message and the claims: removed and deducted as told', async () => {
    const removed = [await site.claim(1001, 501, unreached), await site.claim(1001, 502, unreached)]
    const kept = await site.claim(1001, 503, { ...unreached, seedtime: 2000 * H })
    const cutting = service({ onStep: async (step) => void (step === 'messaged' && (await site.killWriters())) })
    await cutting.run({ ids: [wage(1001)] }, operator, '127.0.0.1')
    const paid = parseTenths(START) + credit(1001)
    const [message] = await site.messages(1001)
    expect(message!.msg).toContain('2 个认领超过一个月未达标，已取消认领，共扣除 1200.0 魔力')
    expect(await site.bonus(1001)).toBe(formatTenths(paid))
    expect(await site.claims(1001)).toHaveLength(3)
    expect((await entry(1001)).claims_plan).not.toBeNull()

    // Meanwhile the admin raises the deduction per claim, and the site deletes the torrent of one claim to remove.
    await setRules({ claimRemoveDeduction: 800 })
    await site.conn.query('DELETE FROM torrents WHERE id = 502')

    const [retry] = await service().run({ ids: [wage(1001)] }, operator, '127.0.0.1')
    expect(retry!.status).toBe('already')
    expect(await site.bonus(1001)).toBe(formatTenths(paid - 12000n))
    const logs = await site.logs(1001)
    expect(logs.map((l) => [l.business_type, Number(l.value)])).toEqual([
      [ROLE_WORK_SALARY, Number(credit(1001) / 10n)],
      [CLAIM_REMOVE_DEDUCT_TYPE, 1200],
    ])
    expect(logs[1]!.comment).toContain('取消 2 个未达标认领，扣除 1200.0')
    expect(await site.messages(1001)).toHaveLength(1)
    const left = await site.claims(1001)
    expect(left.map((c) => Number(c.id))).toEqual([kept])
    expect(left.map((c) => Number(c.id))).not.toContain(removed[0])
    expect(left[0]!.seed_time_begin).toBe(String(2000 * H))
  })

  it('settleClaims switched off after the message: still removed and deducted as told', async () => {
    await freshMember()
    const paid = await paidAndCutAt('messaged', [501, 502])
    const [message] = await site.messages(1001)
    expect(message!.msg).toContain('共扣除 1200.0 魔力')
    expect((await entry(1001)).claims_plan).not.toBeNull()

    // The admin switches 发放时结算认领 off, then pays again.
    await setRules({ settleClaims: false })
    const [retry] = await service().run({ ids: [wage(1001)] }, operator, '127.0.0.1')
    expect(retry!.status).toBe('already')
    expect((await entry(1001)).state).toBe('done')
    expect(await site.bonus(1001)).toBe(formatTenths(paid - 12000n))
    expect(await site.claims(1001)).toHaveLength(0)
    expect(await site.messages(1001)).toHaveLength(1)
  })

  it('settleClaims switched off after the deduction: the claims it was taken for are removed, not left to be charged again', async () => {
    await freshMember()
    const paid = await paidAndCutAt('claims-deducted', [601, 602])
    expect(await site.bonus(1001)).toBe(formatTenths(paid - 12000n))
    await setRules({ settleClaims: false })
    const [retry] = await service().run({ ids: [wage(1001)] }, operator, '127.0.0.1')
    expect(retry!.status).toBe('already')
    expect((await entry(1001)).state).toBe('done')
    // Charged 1200 for these two claims, once: they are gone (else the next settlement charges them again), and logged.
    expect(await site.bonus(1001)).toBe(formatTenths(paid - 12000n))
    expect(await site.claims(1001)).toHaveLength(0)
    expect((await site.logs(1001)).map((l) => [Number(l.business_type), Number(l.value)])).toContainEqual([20, 1200])
  })

  // Last two: they convert the site's tables.
  it('a deduction noted as sent, its line overwritten, the tables InnoDB since: 待核对, never deducted twice', async () => {
    await freshMember()
    const paid = await paidAndCutAt('claims-deducted', [801, 802])
    expect(await site.bonus(1001)).toBe(formatTenths(paid - 12000n))
    expect(await entry(1001)).toMatchObject({ claims_plan: expect.any(String), claims_sent_at: expect.anything() })
    // NexusPHP writes back a bonuscomment read earlier: the claims line is gone (the credit's line kept).
    const comment = (await site.bonusComment(1001)) ?? ''
    const kept = comment
      .split('\n')
      .filter((line) => !line.includes(':claims]'))
      .join('\n')
    expect(kept).not.toBe(comment)
    await site.conn.query('UPDATE users SET bonuscomment = ? WHERE id = 1001', [kept])
    for (const table of ['users', 'bonus_logs', 'messages', 'claims']) await site.conn.query(`ALTER TABLE ${table} ENGINE=InnoDB`)
    const [retry] = await service().run({ ids: [wage(1001)] }, operator, '127.0.0.1')
    // In a transaction as statement by statement: the note says it was sent, nothing on the site says it landed.
    expect(retry).toMatchObject({ status: 'in_doubt', reason: expect.stringContaining('无法确认是否已扣除 1200.0 魔力') })
    expect(await site.bonus(1001)).toBe(formatTenths(paid - 12000n))
    for (const table of ['users', 'bonus_logs', 'messages', 'claims']) await site.conn.query(`ALTER TABLE ${table} ENGINE=MyISAM`)
  })

  it('tables converted to InnoDB since, claims settled no more: the plan told is still finished', async () => {
    await freshMember()
    const paid = await paidAndCutAt('claims-deducted', [701, 702])
    expect(await site.bonus(1001)).toBe(formatTenths(paid - 12000n))
    expect((await entry(1001)).claims_plan).not.toBeNull()
    // The site's users, bonus_logs and messages are InnoDB now (the claims table is not counted with settleClaims off):
    // the retry runs in a transaction, and still settles what the member was told.
    for (const table of ['users', 'bonus_logs', 'messages']) await site.conn.query(`ALTER TABLE ${table} ENGINE=InnoDB`)
    await setRules({ settleClaims: false })
    const [retry] = await service().run({ ids: [wage(1001)] }, operator, '127.0.0.1')
    expect(retry!.status).toBe('already')
    expect((await entry(1001)).state).toBe('done')
    expect(await site.bonus(1001)).toBe(formatTenths(paid - 12000n))
    expect(await site.claims(1001)).toHaveLength(0)
  })
})
