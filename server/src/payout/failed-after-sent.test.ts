/**
 * An attempt that fails before it touches the site (its connection refused, its first read denied) on an entry an
 * earlier attempt left unfinished after sending a bonus change: the entry stays as it was, so the next payout checks
 * the site first — a failed entry would be reopened afresh, its notes of what was sent forgotten, and the member
 * credited (or deducted) a second time where the site overwrote the change's bonuscomment line. NexusPHP v1.6's
 * MyISAM, on MariaDB (NEXUSPHP_TEST_DATABASE_URL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestDatabase } from '../test/harness'
import { payWages } from '../wages/engine'
import { wageDb } from '../wages/tables'
import type { PayoutService } from './service'
import { payoutKit } from './testing/kit'
import { openSiteMonth } from './testing/site-month'
import { NexusSite } from './testing/nexus-site'
import { AFTER_MONTH, PERIOD, type WageMonth } from './testing/wage-month'
import { openEntries, transition } from './ledger'
import type { PayoutResult } from '@shared/payout'
import mysql, { type RowDataPacket } from 'mysql2/promise'
import { formatTenths, parseTenths } from './tenths'

const serverUrl = process.env.NEXUSPHP_TEST_DATABASE_URL
const operator = { id: 1, username: 'admin' }
const H = 3600
const GIB = 1024 ** 3
const START = '1000.0'
/** What NexusPHP's gift (or its user edit form) writes back: a bonuscomment read before our line was added. */
const OVERWRITTEN = '2026-02-10 - 收到 alice 赠送的 100 魔力'

describe.skipIf(!serverUrl)('a failed attempt after an earlier one sent a bonus change (NexusPHP, MyISAM)', () => {
  let site: NexusSite
  let db: TestDatabase
  let month: WageMonth
  let writerUrl = ''
  const { service, wage, credit, entry, settleClaims, closeServices } = payoutKit(() => ({ db, writerUrl, month }))
  /** A grant of the writer on users, taken away and given back (a flaky site refuses an attempt's read or write). */
  const usersGrant = (verb: 'GRANT' | 'REVOKE', what = 'SELECT (id, seedbonus, bonuscomment)') => {
    const writer = new URL(writerUrl)
    return Promise.all(
      ['%', 'localhost'].map((host) =>
        site.conn.query(`${verb} ${what} ON ${site.database}.users ${verb === 'GRANT' ? 'TO' : 'FROM'} '${writer.username}'@'${host}'`),
      ),
    )
  }
  const usersRead = (verb: 'GRANT' | 'REVOKE') => usersGrant(verb)
  /**
   * Runs `act` while the site refuses the attempt's first read: it answers 失败 having written nothing. A run checks
   * its grants first (its 'begin'), so the read is taken away after that; 待核对's settlement checks none.
   */
  const refusingFirstRead = async <T>(act: (refusing: PayoutService) => Promise<T>, when: 'now' | 'after begin' = 'after begin') => {
    if (when === 'now') await usersRead('REVOKE')
    const refusing = service({ onStep: async (step) => void (step === 'begin' && (await usersRead('REVOKE'))) })
    try {
      return await act(refusing)
    } finally {
      await usersRead('GRANT')
    }
  }
  /** A payout of `uid` cut (its connections killed) at `step`, after the site overwrote the bonuscomment line. */
  const cutAfter = (uid: number, step: string) =>
    service({
      onStep: async (at, e) => {
        if (at !== step || e.wage_id !== wage(uid)) return
        await site.conn.query('UPDATE users SET bonuscomment = ? WHERE id = ?', [OVERWRITTEN, uid])
        await site.killWriters()
      },
    }).run({ ids: [wage(uid)] }, operator, '127.0.0.1')

  /** The id of the site's session running a statement like `pattern` (SQL LIKE), once one does. */
  const runningStatement = async (pattern: string) => {
    let id = 0
    await expect
      .poll(async () => {
        const [rows] = await site.conn.query<RowDataPacket[]>('SELECT ID FROM information_schema.PROCESSLIST WHERE INFO LIKE ?', [pattern])
        id = Number(rows[0]?.ID ?? 0)
        return id
      })
      .toBeGreaterThan(0)
    return id
  }

  beforeAll(async () => {
    ;({ site, writerUrl, db, month } = await openSiteMonth(serverUrl!, 'MyISAM', { count: 13, bonus: () => START, operator }))
  }, 60_000)
  afterAll(async () => {
    await closeServices()
    await db?.cleanup()
    await site?.drop()
  })

  it('the credit: the failed retry leaves the entry unfinished, the next payout leaves it 待核对, never credits again', async () => {
    await settleClaims(false)
    await cutAfter(1001, 'credited')
    const once = formatTenths(parseTenths(START) + credit(1001))
    expect(await site.bonus(1001)).toBe(once)
    expect(await entry(1001)).toMatchObject({ state: 'pending' })

    const [failed] = await refusingFirstRead((refusing) => refusing.run({ ids: [wage(1001)] }, operator, '127.0.0.1'))
    expect(failed).toMatchObject({ status: 'failed' })
    expect(await entry(1001)).toMatchObject({ state: 'pending' })
    expect((await entry(1001)).credit_sent_at).not.toBeNull()

    const [again] = await service().run({ ids: [wage(1001)] }, operator, '127.0.0.1')
    expect(again).toMatchObject({ status: 'in_doubt' })
    expect(await site.bonus(1001)).toBe(once)
  })

  it('待核对: a 确认已到账 that fails keeps the entry 待核对 with its reason; the next payout credits nothing', async () => {
    await settleClaims(false)
    await cutAfter(1002, 'credited')
    const once = formatTenths(parseTenths(START) + credit(1002))
    const [doubt] = await service().run({ ids: [wage(1002)] }, operator, '127.0.0.1')
    expect(doubt).toMatchObject({ status: 'in_doubt' })
    const reason = (await entry(1002)).reason

    const failed = await refusingFirstRead((refusing) => refusing.resolve(wage(1002), 'markDone', operator, '127.0.0.1'), 'now')
    expect(failed).toMatchObject({ status: 'failed' })
    expect(await entry(1002)).toMatchObject({ state: 'in_doubt', reason, settled_by_name: null })

    const [again] = await service().run({ ids: [wage(1002)] }, operator, '127.0.0.1')
    expect(again).toMatchObject({ status: 'in_doubt' })
    expect(await site.bonus(1002)).toBe(once)
    // Settled as the admin finds it: the credit is there.
    expect(await service().resolve(wage(1002), 'markDone', operator, '127.0.0.1')).toMatchObject({ status: 'paid' })
    expect(await site.bonus(1002)).toBe(once)
  })

  it('the claims deduction: the failed retry leaves the entry unfinished, the next payout never deducts again', async () => {
    await settleClaims(true)
    const claim = { size: 10 * GIB, uploaded: 0, uploadedBegin: 0, createdAt: '2025-07-01 10:00:00' }
    await site.claim(1003, 901, { ...claim, seedtime: 1010 * H, seedBegin: 1000 * H })
    await cutAfter(1003, 'claims-deducted')
    const paidOnce = formatTenths(parseTenths(START) + credit(1003) - 6000n)
    expect(await site.bonus(1003)).toBe(paidOnce)

    const [failed] = await refusingFirstRead((refusing) => refusing.run({ ids: [wage(1003)] }, operator, '127.0.0.1'))
    expect(failed).toMatchObject({ status: 'failed' })
    expect(await entry(1003)).toMatchObject({ state: 'pending' })

    const [again] = await service().run({ ids: [wage(1003)] }, operator, '127.0.0.1')
    expect(again).toMatchObject({ status: 'in_doubt' })
    expect(await site.bonus(1003)).toBe(paidOnce)
  })
  it('a concurrent attempt failing while it waited for the member: the entry stays unfinished, never credited again', async () => {
    await settleClaims(false)
    const uid = 1004
    let waiting!: Promise<unknown>
    let releaseB!: () => void
    const bMayGo = new Promise<void>((resolve) => (releaseB = resolve))
    let bBegun!: () => void
    const bAtBegin = new Promise<void>((resolve) => (bBegun = resolve))
    // B read the entry (no note yet) and waits; A takes the member, notes and sends the credit, B queues for the
    // member's lock, and the site's connections drop: A is cut after its credit, B before reading anything (失败).
    const b = service({
      onStep: async (step) => {
        if (step !== 'begin') return
        bBegun()
        await bMayGo
      },
    })
    const a = service({
      onStep: async (step, e) => {
        if (e.wage_id !== wage(uid)) return
        if (step === 'begin') {
          waiting = b.run({ ids: [wage(uid)] }, operator, '127.0.0.1')
          await bAtBegin
        }
        if (step === 'noted') releaseB()
        if (step === 'credited') {
          // B waits for the member's lock.
          await runningStatement('SELECT GET_LOCK%')
          await site.conn.query('UPDATE users SET bonuscomment = ? WHERE id = ?', [OVERWRITTEN, uid])
          await site.killWriters()
        }
      },
    })
    const [cut] = await a.run({ ids: [wage(uid)] }, operator, '127.0.0.1')
    const [failed] = (await waiting) as PayoutResult[]
    expect([cut!.status, failed!.status]).toEqual(['failed', 'failed'])
    const once = formatTenths(parseTenths(START) + credit(uid))
    expect(await site.bonus(uid)).toBe(once)
    expect(await entry(uid)).toMatchObject({ state: 'pending' })

    const [again] = await service().run({ ids: [wage(uid)] }, operator, '127.0.0.1')
    expect(again).toMatchObject({ status: 'in_doubt' })
    expect(await site.bonus(uid)).toBe(once)
  })

  it('a credit statement the site refuses takes its note back: 失败, and the next payout pays once', async () => {
    await settleClaims(false)
    const uid = 1005
    const refusing = service({
      onStep: async (step, e) =>
        void (step === 'noted' && e.wage_id === wage(uid) && (await usersGrant('REVOKE', 'UPDATE (seedbonus, bonuscomment)'))),
    })
    try {
      const [refused] = await refusing.run({ ids: [wage(uid)] }, operator, '127.0.0.1')
      expect(refused).toMatchObject({ status: 'failed' })
    } finally {
      await usersGrant('GRANT', 'UPDATE (seedbonus, bonuscomment)')
    }
    expect(await entry(uid)).toMatchObject({ state: 'failed', credit_sent_at: null })
    expect(await site.bonus(uid)).toBe(START)
    const [paid] = await service().run({ ids: [wage(uid)] }, operator, '127.0.0.1')
    expect(paid).toMatchObject({ status: 'paid' })
    expect(await site.bonus(uid)).toBe(formatTenths(parseTenths(START) + credit(uid)))
  })

  it('a member gone from the site after a cut credit: 失败, and the record can be settled by hand', async () => {
    await settleClaims(false)
    const uid = 1006
    await cutAfter(uid, 'credited')
    await site.conn.query('DELETE FROM users WHERE id = ?', [uid])
    const [gone] = await service().run({ ids: [wage(uid)] }, operator, '127.0.0.1')
    expect(gone).toMatchObject({ status: 'failed', reason: expect.stringContaining('站点上找不到该会员') })
    expect(await entry(uid)).toMatchObject({ state: 'failed' })
    expect((await payWages(db.database, { ids: [wage(uid)], now: AFTER_MONTH, operator, ip: '127.0.0.1' })).paid).toBe(1)
  })
  it('a member deleted from the site between the read and the credit: the credit changes nothing, 失败, settled by hand', async () => {
    await settleClaims(false)
    const uid = 1013
    const deleting = service({
      onStep: async (step, e) =>
        void (step === 'noted' && e.wage_id === wage(uid) && (await site.conn.query('DELETE FROM users WHERE id = ?', [uid]))),
    })
    const [gone] = await deleting.run({ ids: [wage(uid)] }, operator, '127.0.0.1')
    expect(gone).toMatchObject({ status: 'failed', reason: expect.stringContaining(`站点上找不到该会员（UID ${uid}）`) })
    expect(await site.logs(uid)).toEqual([])
    expect(await site.messages(uid)).toEqual([])
    expect(await entry(uid)).toMatchObject({ state: 'failed' })
    expect((await payWages(db.database, { ids: [wage(uid)], now: AFTER_MONTH, operator, ip: '127.0.0.1' })).paid).toBe(1)
  })
  it('a concurrent attempt recorded 失败 before this one noted its credit: this one sends nothing, the next pays once', async () => {
    await settleClaims(false)
    const uid = 1007
    const a = service({
      onStep: async (step, e) => {
        if (e.wage_id !== wage(uid) || step !== 'begin') return
        // A has read the entry (pending, nothing noted); B takes the member first and its first read is refused.
        const [failed] = await refusingFirstRead((b) => b.run({ ids: [wage(uid)] }, operator, '127.0.0.1'))
        expect(failed).toMatchObject({ status: 'failed' })
        expect(await entry(uid)).toMatchObject({ state: 'failed', credit_sent_at: null })
      },
    })
    const [late] = await a.run({ ids: [wage(uid)] }, operator, '127.0.0.1')
    expect(late).toMatchObject({ status: 'failed' })
    expect(await site.bonus(uid)).toBe(START)
    expect(await entry(uid)).toMatchObject({ state: 'failed', credit_sent_at: null })
    const [paid] = await service().run({ ids: [wage(uid)] }, operator, '127.0.0.1')
    expect(paid).toMatchObject({ status: 'paid' })
    expect(await site.bonus(uid)).toBe(formatTenths(parseTenths(START) + credit(uid)))
  })

  it('a credit statement that answered an error after it changed the row (a slow trigger killed) counts as landed', async () => {
    await settleClaims(false)
    const uid = 1008
    // An AFTER UPDATE trigger of the site's keeps the statement running after the row changed; KILL QUERY then
    // answers "Query execution was interrupted" — on MyISAM the change stays, and its line says so.
    await site.conn.query('CREATE TRIGGER outside_slow AFTER UPDATE ON users FOR EACH ROW DO SLEEP(5)')
    let killed: Promise<void> | undefined
    const a = service({
      onStep: async (step, e) => {
        if (e.wage_id !== wage(uid) || step !== 'noted') return
        killed = (async () => {
          const id = await runningStatement('DO SLEEP(5)')
          await site.conn.query(`KILL QUERY ${id}`)
        })()
      },
    })
    try {
      const [paid] = await a.run({ ids: [wage(uid)] }, operator, '127.0.0.1')
      await killed
      expect(paid).toMatchObject({ status: 'paid' })
    } finally {
      await site.conn.query('DROP TRIGGER outside_slow')
    }
    const once = formatTenths(parseTenths(START) + credit(uid))
    expect(await site.bonus(uid)).toBe(once)
    expect([(await site.logs(uid)).length, (await site.messages(uid)).length]).toEqual([1, 1])
    expect(await entry(uid)).toMatchObject({ state: 'done' })
  })

  it('a credit statement a site trigger refuses before it runs (SIGNAL): 失败, its note taken back, the next payout pays once', async () => {
    await settleClaims(false)
    const uid = 1010
    await site.conn.query(
      "CREATE TRIGGER outside_refuse BEFORE UPDATE ON users FOR EACH ROW BEGIN IF NEW.id = 1010 THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'frozen'; END IF; END",
    )
    try {
      const [refused] = await service().run({ ids: [wage(uid)] }, operator, '127.0.0.1')
      expect(refused).toMatchObject({ status: 'failed', reason: expect.stringContaining('frozen') })
    } finally {
      await site.conn.query('DROP TRIGGER outside_refuse')
    }
    expect(await entry(uid)).toMatchObject({ state: 'failed', credit_sent_at: null })
    expect(await site.bonus(uid)).toBe(START)
    const [paid] = await service().run({ ids: [wage(uid)] }, operator, '127.0.0.1')
    expect(paid).toMatchObject({ status: 'paid' })
    expect(await site.bonus(uid)).toBe(formatTenths(parseTenths(START) + credit(uid)))
  })

  it('a payout that cannot start (a grant missing) shows paid and 待核对 records as they are, only the others 失败', async () => {
    // Paid into the site, 待核对, marked 已发放 by hand, never tried.
    const uids = [1005, 1003, 1006, 1009]
    const before = await Promise.all(uids.slice(0, 3).map(entry))
    expect(before.map((e) => e.state)).toEqual(['done', 'in_doubt', 'failed'])
    await usersRead('REVOKE')
    try {
      const results = await service().run({ ids: uids.map(wage) }, operator, '127.0.0.1')
      const byWage = new Map(results.map((r) => [r.wageId, r]))
      expect(uids.map((uid) => byWage.get(wage(uid))!.status)).toEqual(['already', 'in_doubt', 'already', 'failed'])
      expect(byWage.get(wage(1009))!.reason).toContain('缺少权限')
    } finally {
      await usersRead('GRANT')
    }
    expect(await Promise.all(uids.slice(0, 3).map(entry))).toEqual(before)
  })
  it('an entry reopened with another amount after this attempt read it: this attempt sends nothing, the next pays once', async () => {
    await settleClaims(false)
    const uid = 1011
    const a = service({
      onStep: async (step, e) => {
        if (e.wage_id !== wage(uid) || step !== 'begin') return
        // Meanwhile another attempt recorded it failed, a recompute changed the record, and a third run reopened it.
        expect(await transition(db.database.db, (await entry(uid)).id, 'pending', 'failed', { now: AFTER_MONTH })).toBe(true)
        await wageDb(db.database.db).updateTable('wage_records').set({ amount: 10 }).where('id', '=', wage(uid)).execute()
        const reopened = { wageId: wage(uid), period: PERIOD, userId: month.users.get(uid)!, siteUid: uid, amount: 10 }
        await openEntries(db.database.db, [reopened], { target: 'nexusphp', operator, now: AFTER_MONTH })
      },
    })
    const [stale] = await a.run({ ids: [wage(uid)] }, operator, '127.0.0.1')
    expect(stale).toMatchObject({ status: 'failed', reason: expect.stringContaining('已被另一个发放处理') })
    expect(await site.bonus(uid)).toBe(START)
    // Its 失败 is not recorded on the entry as reopened (another payment, which the run that reopened it is about to
    // make); the next payout pays the record as it is.
    expect(await entry(uid)).toMatchObject({ state: 'pending', amount: 10, credit_sent_at: null })
    const [paid] = await service().run({ ids: [wage(uid)] }, operator, '127.0.0.1')
    expect(paid).toMatchObject({ status: 'paid' })
    expect(await site.bonus(uid)).toBe(formatTenths(parseTenths(START) + 100n))
  })
  it('a credit statement that failed while a write-back of the line queued behind it: no line, another bonus — never credited again', async () => {
    await settleClaims(false)
    const uid = 1012
    await site.conn.query('CREATE TRIGGER outside_slow2 AFTER UPDATE ON users FOR EACH ROW DO SLEEP(5)')
    const siteUrl = new URL(serverUrl!)
    siteUrl.pathname = `/${site.database}`
    const other = await mysql.createConnection(siteUrl.toString())
    let writeBack: Promise<unknown> | undefined
    let killed: Promise<void> | undefined
    const a = service({
      onStep: async (step, e) => {
        if (e.wage_id !== wage(uid) || step !== 'noted') return
        killed = (async () => {
          const id = await runningStatement('DO SLEEP(5)')
          // NexusPHP's gift: 100 given away, and the bonuscomment it read before our line written back — queued
          // behind our statement's table lock, it runs before the attempt's reads.
          writeBack = other.query('UPDATE users SET seedbonus = seedbonus - 100, bonuscomment = ? WHERE id = ?', [OVERWRITTEN, uid])
          await runningStatement('UPDATE users SET seedbonus = seedbonus - 100%')
          await site.conn.query(`KILL QUERY ${id}`)
        })()
      },
    })
    try {
      const [cut] = await a.run({ ids: [wage(uid)] }, operator, '127.0.0.1')
      await killed
      await writeBack
      expect(cut).toMatchObject({ status: 'failed' })
    } finally {
      await site.conn.query('DROP TRIGGER outside_slow2')
      await other.end()
    }
    const once = formatTenths(parseTenths(START) + credit(uid) - 1000n)
    expect(await site.bonus(uid)).toBe(once)
    expect(await entry(uid)).toMatchObject({ state: 'pending' })
    expect((await entry(uid)).credit_sent_at).not.toBeNull()
    const [again] = await service().run({ ids: [wage(uid)] }, operator, '127.0.0.1')
    expect(again).toMatchObject({ status: 'in_doubt' })
    expect(await site.bonus(uid)).toBe(once)
  })
})
