/**
 * SOURCE=demo: pays into the demo's simulated site, kept in our own database (migration 0015): each
 * member's bonus, a log row carrying the ledger key and the message. One transaction per member.
 */
import { type Kysely, sql } from 'kysely'
import type { DialectName } from '../db/database'
import type { DB } from '../db/schema'
import { formatTenths } from './tenths'
import type { MemberPayout, PayOutcome, PayoutTarget } from './target'

/** A simulated member's bonus before the first payout: some thousands of points, fixed per uid. */
export function demoStartingTenths(uid: number): bigint {
  return BigInt(((uid * 2_654_435_761) % 9_000_000) + 100_000)
}

/** First key of the per-member advisory locks of the demo site ("demo" in ASCII); the second is the uid. */
const DEMO_BONUS_LOCK_KEY = 0x64656d6f

export function demoTarget(db: Kysely<DB>, dialect: DialectName): PayoutTarget {
  async function bonusOf(trx: Kysely<DB>, uid: number): Promise<bigint> {
    const row = await trx.selectFrom('payout_demo_bonus').select('bonus_tenths').where('uid', '=', uid).executeTakeFirst()
    return row ? BigInt(row.bonus_tenths) : demoStartingTenths(uid)
  }

  async function write(member: MemberPayout, credit: bigint): Promise<PayOutcome> {
    const uid = member.wage.siteUid
    if (uid === null) return { state: 'failed', reason: '该保种员没有绑定站点 UID，无法发放到站点' }
    return db.transaction().execute(async (trx) => {
      // Every payout into one member's bonus queues here — one entry retried, or two months (two server processes) at
      // once, which would both read the same bonus and the last write win. SQLite's transactions already run one at a
      // time; PostgreSQL takes a lock on the uid (its bonus row may not exist yet).
      if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${DEMO_BONUS_LOCK_KEY}, ${uid})`.execute(trx)
      const landed = await trx
        .selectFrom('payout_demo_logs')
        .selectAll()
        .where('ledger_key', '=', member.entry.ledger_key)
        .executeTakeFirst()
      if (landed) {
        return {
          state: 'done',
          already: true,
          evidence: {
            bonusBefore: formatTenths(BigInt(landed.old_tenths)),
            bonusAfter: formatTenths(BigInt(landed.new_tenths)),
            logId: landed.id,
            messageId: landed.id,
          },
        }
      }
      const before = await bonusOf(trx, uid)
      const after = before + credit
      const texts = member.texts(before, after)
      await trx
        .insertInto('payout_demo_bonus')
        .values({ uid, bonus_tenths: Number(after) })
        .onConflict((oc) => oc.column('uid').doUpdateSet({ bonus_tenths: Number(after) }))
        .execute()
      const log = await trx
        .insertInto('payout_demo_logs')
        .values({
          uid,
          ledger_key: member.entry.ledger_key,
          old_tenths: Number(before),
          value_tenths: Number(credit),
          new_tenths: Number(after),
          comment: texts.comment,
          subject: texts.subject,
          msg: texts.message,
          at: Date.now(),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      return {
        state: 'done',
        already: false,
        evidence: { bonusBefore: formatTenths(before), bonusAfter: formatTenths(after), logId: log.id, messageId: log.id },
      }
    })
  }

  return {
    name: 'demo',
    async begin() {},
    async bonusOf(uids) {
      const out = new Map<number, bigint>()
      for (const uid of uids) out.set(uid, await bonusOf(db, uid))
      return out
    },
    pay: (member) => write(member, member.credit),
    // One transaction: nothing can be cut in between, so there is never anything to settle.
    settle: (member) => write(member, member.credit),
    async close() {},
  }
}
