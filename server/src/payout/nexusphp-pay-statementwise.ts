/**
 * Paying a member on a site with MyISAM tables (v1.6 installs), where nothing can be rolled back.
 * The log row goes first (it is the evidence), then the bonus, then the message (the proof the
 * whole entry landed). An entry found with its log row but without its message was cut in between:
 * 待核对, never retried blindly; an admin settles it (`rest`: the bonus did land, or credit it now).
 *
 * With `settleClaims` the claims are settled after the message, each step safe to repeat, so an
 * entry cut there stays unfinished (失败, "认领结算中断") and the next payout finds the bonus, log
 * and message landed and only finishes the claims.
 */
import type { PoolConnection } from 'mysql2/promise'
import type { Evidence } from './ledger'
import { applyClaims, claimsNote, planClaims, type ClaimPlan } from './nexusphp-claims'
import { writeErrorReason } from './nexusphp-errors'
import { withMemberLock, type PayContext } from './nexusphp-member-lock'
import { addBonus, bonusRow, insertLog, insertMessage, landed, logEvidence, overflow } from './nexusphp-rows'
import type { SiteShape } from './nexusphp-site-shape'
import type { MemberPayout, PayOutcome } from './target'
import { formatTenths, parseTenths } from './tenths'

export async function payStatementwise(
  { pool, step }: PayContext,
  member: MemberPayout,
  uid: number,
  site: Pick<SiteShape, 'maxBonus' | 'log'>,
  rest?: 'markDone' | 'payRest',
): Promise<PayOutcome> {
  let evidence: Evidence | null = null
  /** Bonus, log and message are in: what is left is the claims, each step safe to repeat. */
  let settling = false
  const plan = async (conn: PoolConnection): Promise<ClaimPlan | null> =>
    member.claims ? planClaims(conn, uid, member.claims, false) : null
  const settle = async (conn: PoolConnection, claims: ClaimPlan | null) => {
    if (!claims) return
    settling = true
    await applyClaims(conn, uid, member.claims!, member.entry.ledger_key, claims, site.log, (name) => step(name, member))
  }
  return withMemberLock(
    pool,
    uid,
    async (conn) => {
      const before = await bonusRow(conn, uid, false)
      if (before === null) return { state: 'failed', reason: `站点上找不到该会员（UID ${uid}）` }
      const earlier = await landed(conn, uid, member.entry.ledger_key)
      if (earlier.log && earlier.messageId !== null) {
        evidence = logEvidence(earlier.log, earlier.messageId)
        // An earlier attempt cut while settling claims: finish them (the steps not yet done).
        await settle(conn, await plan(conn))
        return { state: 'done', already: true, evidence }
      }
      if (earlier.log && !rest) {
        return {
          state: 'in_doubt',
          reason: `上次发放在写入站点途中中断：魔力记录 #${earlier.log.id} 已写入，但无法确认魔力是否已增加（当前魔力 ${formatTenths(before)}）`,
          evidence: { ...logEvidence(earlier.log, null), bonusAfter: formatTenths(before) },
        }
      }
      if (rest) {
        // Settling 待核对: the log row is there; credit the bonus when the admin says it did not land, then the message.
        if (!earlier.log) return { state: 'failed', reason: '站点上没有这笔发放的魔力记录，可以直接重新发放' }
        const logged = logEvidence(earlier.log, null)
        let after = before
        if (rest === 'payRest') {
          after = before + member.credit
          const tooBig = overflow(after, site.maxBonus, site.log)
          if (tooBig) return { state: 'in_doubt', reason: tooBig, evidence: logged }
          await addBonus(conn, uid, member.credit)
        }
        evidence = { ...logged, bonusAfter: formatTenths(after) }
        const claims = await plan(conn)
        const texts = member.texts(
          parseTenths(logged.bonusBefore!),
          parseTenths(logged.bonusAfter!),
          (claims && claimsNote(claims)) ?? undefined,
        )
        const messageId = await insertMessage(conn, uid, texts.subject, texts.message)
        evidence = { ...evidence, messageId }
        await settle(conn, claims)
        return { state: 'done', already: false, evidence }
      }
      const after = before + member.credit
      const tooBig = overflow(after, site.maxBonus, site.log)
      if (tooBig) return { state: 'failed', reason: tooBig }
      const claims = await plan(conn)
      const texts = member.texts(before, after, (claims && claimsNote(claims)) ?? undefined)
      const logId = await insertLog(conn, uid, before, member.credit, after, texts.comment, site.log)
      evidence = { bonusBefore: formatTenths(before), bonusAfter: formatTenths(after), logId }
      await step('logged', member)
      await addBonus(conn, uid, member.credit)
      await step('credited', member)
      const messageId = await insertMessage(conn, uid, texts.subject, texts.message)
      evidence = { ...evidence, messageId }
      await step('messaged', member)
      await settle(conn, claims)
      return { state: 'done', already: false, evidence }
    },
    // Before the log row nothing landed; after it, part of the entry may have. Cut while settling
    // claims: the payment is whole, the claims are finished by the next payout (their steps repeat safely).
    (error) =>
      settling && evidence
        ? {
            state: 'pending',
            reason: `魔力、魔力记录和站内信已写入，认领结算中断：${writeErrorReason(error)}；再次发放时会先核对站点，只补完认领结算`,
            evidence,
          }
        : evidence
          ? {
              state: 'in_doubt',
              reason: `写入站点途中出错，魔力记录 #${evidence.logId} 已写入，无法确认其余部分：${writeErrorReason(error)}`,
              evidence,
            }
          : { state: 'failed', reason: writeErrorReason(error) },
  )
}
