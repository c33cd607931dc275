/**
 * Paying a member on a site whose written tables are all InnoDB: one transaction per member, after
 * looking up the ledger key in bonus_logs under the member's row lock, so a retry never pays twice.
 * With `settleClaims` the member's claims are settled inside the same transaction.
 */
import { isConnectionLost, writeErrorReason } from './nexusphp-errors'
import { applyClaims, claimsNote, planClaims } from './nexusphp-claims'
import { withMemberLock, type PayContext } from './nexusphp-member-lock'
import { addBonus, bonusRow, insertLog, insertMessage, landed, logEvidence, overflow } from './nexusphp-rows'
import type { SiteShape } from './nexusphp-site-shape'
import type { MemberPayout, PayOutcome } from './target'
import { formatTenths } from './tenths'

export async function payTransactional(
  { pool, step }: PayContext,
  member: MemberPayout,
  uid: number,
  site: Pick<SiteShape, 'maxBonus' | 'log'>,
): Promise<PayOutcome> {
  let committing = false
  return withMemberLock(
    pool,
    uid,
    async (conn) => {
      // READ COMMITTED: the key lookup after the row lock sees what a payout that held it committed.
      await conn.query('SET TRANSACTION ISOLATION LEVEL READ COMMITTED')
      await conn.beginTransaction()
      try {
        const before = await bonusRow(conn, uid, true)
        if (before === null) {
          await conn.rollback()
          return { state: 'failed', reason: `站点上找不到该会员（UID ${uid}）` }
        }
        const earlier = await landed(conn, uid, member.entry.ledger_key)
        if (earlier.log) {
          await conn.rollback()
          return { state: 'done', already: true, evidence: logEvidence(earlier.log, earlier.messageId) }
        }
        const after = before + member.credit
        const tooBig = overflow(after, site.maxBonus, site.log)
        if (tooBig) {
          await conn.rollback()
          return { state: 'failed', reason: tooBig }
        }
        const plan = member.claims ? await planClaims(conn, uid, member.claims, true) : null
        const texts = member.texts(before, after, (plan && claimsNote(plan)) ?? undefined)
        await addBonus(conn, uid, member.credit)
        const logId = await insertLog(conn, uid, before, member.credit, after, texts.comment, site.log)
        const messageId = await insertMessage(conn, uid, texts.subject, texts.message)
        if (plan) await applyClaims(conn, uid, member.claims!, member.entry.ledger_key, plan, site.log)
        await step('written', member)
        committing = true
        await conn.commit()
        await step('committed', member)
        return {
          state: 'done',
          already: false,
          evidence: { bonusBefore: formatTenths(before), bonusAfter: formatTenths(after), logId, messageId },
        }
      } catch (error) {
        await conn.rollback().catch(() => {})
        throw error
      }
    },
    // Lost while committing: the commit may have landed. The next attempt looks the key up first.
    (error) =>
      committing && isConnectionLost(error)
        ? { state: 'pending', reason: `${writeErrorReason(error)}；下次发放时先核对站点再继续` }
        : { state: 'failed', reason: writeErrorReason(error) },
  )
}
