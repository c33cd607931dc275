/**
 * Paying one member into a NexusPHP site: the same steps on every engine, each safe to repeat, so an attempt
 * cut anywhere (a killed process, a lost connection) is finished by the next one and nobody is paid twice:
 *
 * 1. the credit — `seedbonus += wage` and, in the same single-row statement, a line in `users.bonuscomment`
 *    carrying the ledger key, as NexusPHP notes its own bonus changes there ("Y-m-d - …", newest first). The
 *    statement applies only while the key is absent, so the bonus moves once however often it is tried — on
 *    MyISAM too, where one row's statement is atomic though nothing can be rolled back. The line also records
 *    the bonus before and after, taken in that statement (nexusphp-rows.ts changeBonusOnce);
 * 2. the bonus log row (business_type 1000) with those figures, unless a row with the key is there;
 * 3. the member's message, unless one with the key is there (a message the member deleted is sent again);
 * 4. with `settleClaims`, the member's claims (nexusphp-claims.ts).
 *
 * All written tables InnoDB: the steps run in one transaction under the member's row lock (all or nothing).
 * Otherwise (v1.6's MyISAM) statement by statement: an attempt cut after its credit stays pending, and the
 * next one looks the key up and writes only what is missing.
 *
 * 待核对 here — what the site's rows cannot settle — is left by entries begun by versions before the bonuscomment line
 * (their MyISAM payouts wrote the log row first); by a MyISAM attempt that sent its credit (noted on the entry first,
 * `sent.note`) when a retry finds neither its line nor its log row (the site may have overwritten the line); by a
 * deduction sent whose proof is gone; and by a key's credit line of another amount than the entry's (an attempt before
 * the entry was reopened). (Others come from the service: an entry reopened under a running attempt, marked 已发放 by
 * hand while open, or opened for another target.) They stay so until the admin settles them (`rest`): 确认已到账
 * writes what is missing but the credit, 补发剩余部分 makes the credit — itself once only — then the rest (never over
 * a credit line of another amount).
 */
import type { PoolConnection } from 'mysql2/promise'
import { ledgerKey, type Evidence } from './ledger'
import { applyClaims, claimsNote, planClaims, readToldPlan, writeToldPlan } from './nexusphp-claims'
import { isConnectionLost, writeErrorReason } from './nexusphp-errors'
import { withMemberLock, type PayContext } from './nexusphp-member-lock'
import {
  bonusMark,
  bonusRow,
  changeBonusOnce,
  insertLog,
  insertMessage,
  landed,
  logEvidence,
  loggedCredit,
  overflow,
  paidForMonth,
} from './nexusphp-rows'
import type { SiteShape } from './nexusphp-site-shape'
import { PayoutError, type MemberPayout, type PayOutcome } from './target'
import { creditLabel, keyTag } from './texts'
import { formatTenths, parseTenths } from './tenths'

/** Said when the entry changed (another attempt recorded it failed, or reopened it) before this one noted a change: nothing was sent. */
const NO_LONGER_OPEN = '这条记录已被另一个发放处理，本次没有写入站点；再发放一次即可'

const memberGone = (uid: number): PayOutcome => ({ state: 'failed', reason: `站点上找不到该会员（UID ${uid}）`, memberGone: true })

/** How far an attempt got: what a cut at that point may have left on the site. */
type Progress = 'reading' | 'crediting' | 'credited' | 'settling'

export async function payMember(
  { pool, step }: PayContext,
  member: MemberPayout,
  uid: number,
  site: Pick<SiteShape, 'maxBonus' | 'log' | 'transactional' | 'claims'>,
  rest?: 'markDone' | 'payRest',
): Promise<PayOutcome> {
  const key = member.entry.ledger_key
  // Settling 待核对 is statement by statement, as the attempt it finishes was.
  const transactional = site.transactional && !rest
  let progress: Progress = 'reading'
  let committing = false
  // The writer reads the site's claim standards whenever the payout settles claims (writer.site(claims)).
  const standards = () => {
    if (!site.claims) throw new PayoutError('未读取站点的认领达标设置，无法结算认领')
    return site.claims
  }

  const attempt = async (conn: PoolConnection): Promise<PayOutcome> => {
    // In one transaction nothing is noted before the credit (a note would outlive a rollback): the entry is checked
    // under the member's lock instead, so an attempt that read it before it failed and was reopened with another amount
    // or uid (minutes earlier, at the start of a whole month's run) pays nothing. (Statement by statement: note('credit').)
    if (transactional && !(await member.sent.stillOpen())) return { state: 'failed', reason: NO_LONGER_OPEN }
    const before = await bonusRow(conn, uid, transactional)
    if (before === null) return memberGone(uid)
    const earlier = await landed(conn, uid, key)
    const sent = await member.sent.read()
    let mark = earlier.mark
    // The key's credit line says what was credited; without it (the site wrote the line away since), the key's log row
    // of an entry opened since 0.3.0 (written with the credit, never before it). Another amount: written by an attempt on
    // the entry before it was reopened with a new amount (its process gone before it could record so) — which one the
    // site should hold is the admin's call, never settled as this one.
    // 补发剩余部分 credits nothing then (the key's line or log row is there) and must not report this amount paid;
    // 确认已到账 is the admin's word that the site now holds what the record says (the bonus adjusted there by hand).
    const currentKey = key === ledgerKey(member.entry.wage_id, member.wage.period)
    const lineCredit = mark?.bonusBefore && mark.bonusAfter ? parseTenths(mark.bonusAfter) - parseTenths(mark.bonusBefore) : null
    const logCredit = mark === null && earlier.log !== null && currentKey ? loggedCredit(earlier.log, site.log) : null
    const siteCredit = lineCredit ?? logCredit
    const where = lineCredit !== null ? '魔力备注' : '魔力记录'
    if (siteCredit !== null && siteCredit !== member.credit && rest !== 'markDone')
      return {
        state: 'in_doubt',
        reason:
          rest === 'payRest'
            ? `站点上这笔发放已入账 ${formatTenths(siteCredit)} 魔力（${where}），这条记录是 ${formatTenths(member.credit)} 魔力：「补发剩余部分」不会再入账。请在站点上把魔力按记录调整（多退少补）后选「确认已到账」`
            : `站点上这笔发放的${where}记的是 ${formatTenths(siteCredit)} 魔力，这条记录现在是 ${formatTenths(member.credit)} 魔力（记录在发放途中被重新打开过）：请核对站点上的魔力后处理`,
        evidence: lineCredit !== null ? { bonusBefore: mark!.bonusBefore, bonusAfter: mark!.bonusAfter } : logEvidence(earlier.log!, null),
      }
    // Entries opened since 0.3.0 (their key names the month) write the log row only after the credit: their log row
    // proves the credit landed, even when its bonuscomment line has been overwritten since.
    // An attempt that got as far as the claims deduction had its credit, log row and message in before it.
    const creditLanded = (earlier.log !== null && currentKey) || sent.claims
    // A log row without the bonuscomment line on an older entry: maybe its earlier version's attempt, which wrote the log row first.
    const legacy = mark === null && earlier.log !== null && !creditLanded
    if (legacy && earlier.messageId === null && !rest)
      return {
        state: 'in_doubt',
        reason: `上次发放在写入站点途中中断：魔力记录 #${earlier.log!.id} 已写入，但无法确认魔力是否已增加（当前魔力 ${formatTenths(before)}）`,
        evidence: { ...logEvidence(earlier.log!, null), bonusAfter: formatTenths(before) },
      }
    // Nothing of this entry on the site; the member's month may still have been paid under another record's key: a
    // console set up afresh or restored from a backup (the same wage: not paid twice) — or another team's console on the
    // same site, whose wage is not this one. A payment of another amount is not taken for this one: 待核对, the admin's
    // call (确认已到账: the same wage; 补发剩余部分: another, paid now).
    const nothingOfThisEntry = mark === null && earlier.log === null && earlier.messageId === null
    const paidOtherwise = async () => {
      const other = await paidForMonth(conn, uid, member.wage.period, member.sent.othersKeys)
      if (!other) return null
      const found = other.log ? loggedCredit(other.log, site.log) : null
      return { other, found, same: found === null || found === member.credit }
    }
    if (!rest && nothingOfThisEntry) {
      const paid = await paidOtherwise()
      if (paid?.same) return { state: 'done', already: true, evidence: paid.other.log ? logEvidence(paid.other.log, null) : {} }
      if (paid)
        return {
          state: 'in_doubt',
          reason: `站点上已有这位保种员 ${member.wage.period} 的另一笔保种工资（魔力记录 #${paid.other.log!.id}，${formatTenths(paid.found!)} 魔力），与这条记录的 ${formatTenths(member.credit)} 魔力不同：可能是另一个控制台（如另一个保种组）或本控制台恢复备份之前发放的。是同一笔工资请选「确认已到账」；不是请选「补发剩余部分」，发放这笔 ${formatTenths(member.credit)} 魔力`,
          evidence: logEvidence(paid.other.log!, null),
        }
    }
    // An earlier attempt sent its credit, and neither its line nor a log row is there: the credit may have landed and
    // its line been overwritten since (NexusPHP's gift and its user edit form write back a bonuscomment read earlier).
    // (Only statement-by-statement attempts note: a note on a site whose tables are InnoDB now is from its MyISAM days.)
    const creditUnknown = sent.credit && mark === null && earlier.log === null
    if (creditUnknown && !rest)
      return {
        state: 'in_doubt',
        reason: `上次发放在增加魔力时中断，站点上找不到它的魔力备注和魔力记录，无法确认魔力是否已增加（当前魔力 ${formatTenths(before)}）`,
        evidence: { bonusAfter: formatTenths(before) },
      }
    // 待核对 of a month the site shows paid with another amount (above): 确认已到账 takes that payment for this wage;
    // 补发剩余部分 says it is another's, and pays this one now (below).
    const otherPayment = rest && nothingOfThisEntry && !creditUnknown ? await paidOtherwise() : null
    if (otherPayment && !otherPayment.same && rest === 'markDone')
      return { state: 'done', already: true, evidence: logEvidence(otherPayment.other.log!, null) }
    if (rest && earlier.log === null && mark === null && !creditUnknown && !(otherPayment && !otherPayment.same))
      return { state: 'failed', reason: '站点上没有这笔发放中断留下的魔力记录，可以直接重新发放' }

    // A wage of 0, taken only because paying settles the member's claims, with nothing of the month left to settle (the
    // site's own cron settled it first): nothing is written — as NexusPHP's settleUser writes nothing for a month it has
    // settled. Only a fresh attempt: one that wrote something finishes what it began.
    const fresh =
      !rest &&
      mark === null &&
      earlier.log === null &&
      earlier.messageId === null &&
      !sent.credit &&
      !sent.claims &&
      !readToldPlan(sent.told, member.wage.period)
    if (
      fresh &&
      member.credit === 0n &&
      member.claims &&
      claimsNote(await planClaims(conn, uid, member.claims, standards(), transactional)) === null
    )
      return { state: 'done', already: false, evidence: { bonusBefore: formatTenths(before), bonusAfter: formatTenths(before) } }

    let credited = false
    if (mark === null && !creditLanded && (rest ? rest === 'payRest' : !legacy)) {
      const tooBig = overflow(before + member.credit, site.maxBonus, site.log)
      if (tooBig)
        return rest
          ? { state: 'in_doubt', reason: tooBig, evidence: earlier.log ? logEvidence(earlier.log, null) : {} }
          : { state: 'failed', reason: tooBig }
      if (!transactional) {
        if (!(await member.sent.note('credit'))) return { state: 'failed', reason: NO_LONGER_OPEN }
        await step('noted', member)
      }
      progress = 'crediting'
      try {
        credited = await changeBonusOnce(conn, uid, member.credit, creditLabel(member.wage, member.credit), keyTag(key))
      } catch (error) {
        if (transactional || isConnectionLost(error)) throw error
        // The server answered with an error: a site's trigger may fail after the row changed, or refuse it before, as
        // a grant or a strict-mode value does. The statement changes one row, the line with the bonus: its line says
        // it landed. No line, and the bonus as this attempt found it: not there — refused, or undone whole by a
        // write-back of the bonus (queued behind the statement's table lock, it may run before these reads), so
        // crediting again is right either way. No line and another bonus: unknown (a write-back of the line alone).
        const line = await bonusMark(conn, uid, keyTag(key)).catch(() => undefined)
        if (line === null && (await bonusRow(conn, uid, false).catch(() => undefined)) === before) {
          // This attempt's note says nothing: taken back under the member's lock, before 失败 is recorded.
          if (!sent.credit) await member.sent.forget('credit')
          return { state: 'failed', reason: writeErrorReason(error) }
        }
        if (line === null || line === undefined) throw error // unknown: left unfinished, its note kept
        credited = true
      }
      progress = 'credited'
      await step('credited', member)
      mark = await bonusMark(conn, uid, keyTag(key))
      // Nothing changed and no line of ours: the member left the site since it was read — nothing to write.
      if (!credited && mark === null && (await bonusRow(conn, uid, false)) === null) return memberGone(uid)
    }
    // The bonus before and after: as the credit's own line has them, else (an earlier version's entry) its log row;
    // a line someone edited beyond reading leaves the bonus read now (with the credit, if it was earlier).
    const figures = mark ?? (earlier.log ? logEvidence(earlier.log, null) : null)
    const bonusBefore = figures?.bonusBefore ? parseTenths(figures.bonusBefore) : credited ? before : before - member.credit
    const bonusAfter = figures?.bonusAfter ? parseTenths(figures.bonusAfter) : bonusBefore + member.credit

    // Statement by statement the claims are settled after the message: what the message tells is noted on the entry
    // first, so an attempt cut in between is finished as told — not planned afresh (the deduction per claim may have
    // been changed since, a torrent deleted). A transaction leaves nothing to finish.
    // A plan told is settled even where the rules have stopped settling claims since: the member was told, and a
    // deduction it made may have been taken already. Whatever the engines now: only a statement-by-statement attempt
    // notes one, and a site's tables converted to InnoDB since (or counted without the claims table, settleClaims off)
    // still hold what it left.
    // A plan noted by an attempt cut before its message was told to no one, and nothing of it applied (the claims follow
    // the message): planned afresh, by the site's standards now, as the dry run shows. (A deduction noted sent means the
    // message was: one missing now was deleted by the member.)
    const told = earlier.messageId !== null || sent.claims ? readToldPlan(sent.told, member.wage.period) : null
    const claims = told ?? (member.claims ? await planClaims(conn, uid, member.claims, standards(), transactional) : null)
    if (claims && !told && !transactional && earlier.messageId === null && !(await member.sent.tell(writeToldPlan(claims))))
      throw new Error(NO_LONGER_OPEN)
    const texts = member.texts(bonusBefore, bonusAfter, (claims && claimsNote(claims)) ?? undefined)
    const logId = earlier.log
      ? Number(earlier.log.id)
      : // The change the figures show: the credit, or what an attempt before a reopen credited (确认已到账 of such a line).
        await insertLog(conn, uid, bonusBefore, bonusAfter - bonusBefore, bonusAfter, texts.comment, site.log)
    await step('logged', member)
    const messageId = earlier.messageId ?? (await insertMessage(conn, uid, texts.subject, texts.message))
    await step('messaged', member)
    const evidence: Evidence = { bonusBefore: formatTenths(bonusBefore), bonusAfter: formatTenths(bonusAfter), logId, messageId }
    if (claims) {
      progress = 'settling'
      // In a transaction nothing is noted (a note would outlive a rollback); a note a statement-by-statement attempt left
      // (the site's tables converted since) still stops a deduction whose proof is gone at 待核对.
      const guard = transactional
        ? sent.claims
          ? { sentBefore: true, noteSent: async () => {}, rest }
          : undefined
        : {
            sentBefore: sent.claims,
            noteSent: async () => {
              if (!(await member.sent.note('claims'))) throw new Error(NO_LONGER_OPEN)
            },
            rest,
          }
      // A told plan is settled as it is: no rule to re-plan it by (applyClaims' `rule: null`).
      const settled = await applyClaims(conn, uid, told ? null : member.claims, key, claims, site.log, (name) => step(name, member), guard)
      if (settled === 'unknown')
        return {
          state: 'in_doubt',
          reason: `上次发放在扣除认领魔力时中断，站点上找不到这笔扣除的魔力备注和魔力记录，无法确认是否已扣除 ${formatTenths(claims.deduction)} 魔力（工资已到账）：已扣除请选「确认已到账」，未扣除请选「补发剩余部分」（只扣一次）`,
          evidence,
        }
    }
    // Settling 待核对 is the admin's act: 成功 either way (确认已到账 credits nothing).
    return { state: 'done', already: !credited && !rest, evidence }
  }

  return withMemberLock(
    pool,
    uid,
    async (conn) => {
      if (!transactional) return attempt(conn)
      // The server's own isolation level, as NexusPHP writes (a statement-based binlog refuses InnoDB writes at
      // READ COMMITTED). REPEATABLE READ is enough: the transaction begins after the member's lock and its first read
      // locks the member's row, so the snapshot of the key lookups holds what a payout that held the lock committed.
      await conn.beginTransaction()
      try {
        const outcome = await attempt(conn)
        await step('written', member)
        committing = true
        await conn.commit()
        await step('committed', member)
        return outcome
      } catch (error) {
        await conn.rollback().catch(() => {})
        throw error
      }
    },
    (error) => {
      const why = writeErrorReason(error)
      // A transaction rolls back whole, unless the connection went while committing: it may have landed.
      if (transactional)
        return committing && isConnectionLost(error)
          ? { state: 'pending', reason: `${why}；下次发放时先核对站点再继续` }
          : { state: 'failed', reason: why }
      // Reading changed nothing; a credit cut on the wire, or whose line could not be read back, may have applied.
      if (progress === 'reading') return { state: 'failed', reason: why }
      if (progress === 'settling')
        return { state: 'pending', reason: `魔力、魔力记录和站内信已写入，认领结算中断：${why}；再次发放时会先核对站点，只补完认领结算` }
      return {
        state: 'pending',
        reason: `${progress === 'crediting' ? '增加魔力的语句中断，不知是否已执行' : '魔力已增加，魔力记录或站内信未写完'}：${why}；再次发放时会先核对站点，只补完未写入的部分（不会重复增加魔力）`,
      }
    },
  )
}
