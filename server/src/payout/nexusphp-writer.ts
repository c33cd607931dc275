/**
 * Pays into a NexusPHP site over a second connection (NEXUSPHP_WRITE_DATABASE_URL, an account with
 * only the grants README lists): `users.seedbonus` += the wage, a `bonus_logs` row (business_type
 * 1000, NexusPHP's "role work salary") and a message, each carrying the ledger key.
 *
 * - InnoDB (all three tables): one transaction per member, after looking up the ledger key in
 *   bonus_logs under the member's row lock, so a retry never pays twice.
 * - MyISAM (v1.6 installs): nothing can be rolled back. The log row goes first (it is the
 *   evidence), then the bonus, then the message (the proof the whole entry landed). An entry found
 *   with its log row but without its message was cut in between: 待核对, never retried blindly.
 *
 * A named lock per member (GET_LOCK, held by the connection and so released by a dying process)
 * keeps two payouts — of this process or another — from working on one member at once.
 *
 * With the rules' `settleClaims` the member's claims are settled too (nexusphp-claims.ts): inside
 * the member's transaction on InnoDB (claims included in the engine check); on MyISAM after the
 * message, each step safe to repeat, so an entry cut there stays unfinished (失败, "认领结算中断")
 * and the next payout finds the bonus, log and message landed and only finishes the claims.
 */
import mysql from 'mysql2/promise'
import type { Pool, PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise'
import { DEFAULT_NEXUSPHP_TIMEZONE } from '../config'
import { poolOptions, zoneOffset } from '../sources/nexusphp/connection'
import type { Evidence } from './ledger'
import { applyClaims, claimGrantProbes, claimsNote, planClaims, type ClaimPlan } from './nexusphp-claims'
import { keyTag } from './texts'
import { formatTenths, parseTenths, wholePoints } from './tenths'
import { PayoutError, type MemberPayout, type PayOutcome, type PayoutTarget, type StepHook } from './target'

/** NexusPHP's bonus_logs business_type of a role's work salary. */
export const ROLE_WORK_SALARY = 1000
const TABLES = ['users', 'bonus_logs', 'messages']
/** Written by the claim settlement; snatched and torrents are only read. */
const CLAIM_TABLES = ['claims', 'snatched', 'torrents']
const LOCK_WAIT_SEC = 30
const INT_MAX = 2_147_483_647n

export interface NexusphpWriterOptions {
  databaseUrl: string
  timezone?: string
  onStep?: StepHook
}

interface SiteShape {
  transactional: boolean
  /** The claim tables were checked (settleClaims). */
  claims: boolean
  /** Largest seedbonus the column holds, in tenths. */
  maxBonus: bigint
}

const deniedCodes = new Set([
  'ER_TABLEACCESS_DENIED_ERROR',
  'ER_COLUMNACCESS_DENIED_ERROR',
  'ER_DBACCESS_DENIED_ERROR',
  'ER_ACCESS_DENIED_ERROR',
  'ER_SPECIFIC_ACCESS_DENIED_ERROR',
])
const overflowCodes = new Set(['ER_WARN_DATA_OUT_OF_RANGE', 'ER_DATA_OUT_OF_RANGE', 'ER_NUMERIC_VALUE_OUT_OF_RANGE'])

const codeOf = (error: unknown) => (error as { code?: string } | undefined)?.code ?? ''
const isConnectionLost = (error: unknown) =>
  Boolean((error as { fatal?: boolean } | undefined)?.fatal) ||
  /ECONN|EPIPE|PROTOCOL_|ETIMEDOUT|ER_CONNECTION_KILLED|ER_SERVER_SHUTDOWN/.test(codeOf(error))
const words = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** Chinese reason for a failed statement, keeping the server's own words. */
export function writeErrorReason(error: unknown): string {
  const code = codeOf(error)
  if (deniedCodes.has(code)) return `站点写入账号缺少权限（GRANT 见 README「发放到站点」）：${words(error)}`
  if (overflowCodes.has(code)) return `魔力值超出站点字段的上限：${words(error)}`
  if (code === 'ER_NO_SUCH_TABLE') return `站点数据库缺少数据表：${words(error)}`
  if (isConnectionLost(error)) return `与站点数据库的连接中断：${words(error)}`
  return `写入站点失败：${words(error)}`
}

export function nexusphpWriter(options: NexusphpWriterOptions): PayoutTarget {
  let base
  try {
    base = poolOptions({ databaseUrl: options.databaseUrl })
  } catch {
    throw new PayoutError('NEXUSPHP_WRITE_DATABASE_URL 不是有效的地址（mysql://用户:密码@主机:3306/数据库）')
  }
  const pool: Pool = mysql.createPool({ ...base, connectionLimit: 4, maxIdle: 2, decimalNumbers: false })
  const offset = zoneOffset(options.timezone || DEFAULT_NEXUSPHP_TIMEZONE)
  pool.on('connection', (connection) => {
    const core = connection as unknown as { query(sql: string, values: unknown[], callback: (error: unknown) => void): void }
    // NexusPHP writes DATETIMEs in the site's local time; NOW() is taken in that zone.
    core.query('SET time_zone = ?', [offset], () => {})
  })
  const step = async (name: string, member: MemberPayout) => options.onStep?.(name, member.entry)
  let shape: SiteShape | null = null

  async function readShape(claims: boolean): Promise<SiteShape> {
    const wanted = claims ? [...TABLES, ...CLAIM_TABLES] : TABLES
    const [tables] = await pool.query<RowDataPacket[]>(
      'SELECT TABLE_NAME AS name, ENGINE AS engine FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (?)',
      [wanted],
    )
    const engines = new Map(tables.map((t) => [String(t.name), String(t.engine)]))
    const absent = wanted.filter((t) => !engines.has(t))
    if (absent.length)
      throw new PayoutError(`站点数据库缺少数据表，或写入账号没有它们的权限（GRANT 见 README「发放到站点」）：${absent.join('、')}`)
    const [columns] = await pool.query<RowDataPacket[]>(
      "SELECT NUMERIC_PRECISION AS p, NUMERIC_SCALE AS s FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'users' AND COLUMN_NAME = 'seedbonus'",
    )
    const p = Number(columns[0]?.p ?? 20)
    const s = Number(columns[0]?.s ?? 1)
    if (s !== 1) throw new PayoutError(`站点 users.seedbonus 的小数位为 ${s}，发放只支持 NexusPHP 的一位小数（decimal(…,1)）`)
    const written = claims ? [...TABLES, 'claims'] : TABLES
    return { transactional: written.every((t) => engines.get(t)?.toLowerCase() === 'innodb'), claims, maxBonus: 10n ** BigInt(p) - 1n }
  }

  /**
   * The grants, tried without writing anything (`WHERE 1 = 0`): a missing one stops the payout
   * before the first member instead of between two statements of a non-transactional site.
   */
  async function checkGrants(claims: boolean): Promise<void> {
    const base = [
      'SELECT id, seedbonus FROM users WHERE 1 = 0',
      'UPDATE users SET seedbonus = seedbonus WHERE 1 = 0',
      'SELECT id, uid, comment, old_total_value, new_total_value FROM bonus_logs WHERE 1 = 0',
      'INSERT INTO bonus_logs (business_type, uid, old_total_value, value, new_total_value, comment, created_at, updated_at) SELECT 0, 0, 0, 0, 0, NULL, NOW(), NOW() FROM DUAL WHERE 1 = 0',
      'SELECT id, receiver, msg FROM messages WHERE 1 = 0',
      "INSERT INTO messages (sender, receiver, added, subject, msg) SELECT 0, 0, NOW(), '', '' FROM DUAL WHERE 1 = 0",
    ]
    const probes = claims ? [...base, ...claimGrantProbes] : base
    for (const probe of probes) {
      try {
        await pool.query(probe)
      } catch (error) {
        throw new PayoutError(writeErrorReason(error))
      }
    }
  }

  async function site(claims = false): Promise<SiteShape> {
    if (!shape || (claims && !shape.claims)) {
      try {
        shape = await readShape(claims)
      } catch (error) {
        throw error instanceof PayoutError ? error : new PayoutError(writeErrorReason(error))
      }
    }
    return shape
  }

  /** The rows an earlier attempt left: the log row and the message that carry the key. */
  async function landed(conn: PoolConnection, uid: number, key: string): Promise<{ log: RowDataPacket | null; messageId: number | null }> {
    const tag = `%${keyTag(key)}%`
    const [logs] = await conn.query<RowDataPacket[]>(
      'SELECT id, old_total_value, new_total_value, comment FROM bonus_logs WHERE uid = ? AND business_type = ? AND comment LIKE ? ORDER BY id LIMIT 1',
      [uid, ROLE_WORK_SALARY, tag],
    )
    const [messages] = await conn.query<RowDataPacket[]>(
      'SELECT id FROM messages WHERE receiver = ? AND sender = 0 AND msg LIKE ? ORDER BY id LIMIT 1',
      [uid, tag],
    )
    return { log: logs[0] ?? null, messageId: messages[0] ? Number(messages[0].id) : null }
  }

  /** Bonus before/after as the log's comment recorded them (exact), else its whole points. */
  function logEvidence(log: RowDataPacket, messageId: number | null): Evidence {
    const exact = /魔力 (-?\d+\.\d) → (-?\d+\.\d)/.exec(String(log.comment ?? ''))
    return {
      bonusBefore: exact ? exact[1] : formatTenths(BigInt(log.old_total_value) * 10n),
      bonusAfter: exact ? exact[2] : formatTenths(BigInt(log.new_total_value) * 10n),
      logId: Number(log.id),
      messageId,
    }
  }

  async function bonusRow(conn: PoolConnection, uid: number, forUpdate: boolean): Promise<bigint | null> {
    const [rows] = await conn.query<RowDataPacket[]>(`SELECT seedbonus FROM users WHERE id = ?${forUpdate ? ' FOR UPDATE' : ''}`, [uid])
    return rows[0] ? parseTenths(String(rows[0].seedbonus)) : null
  }

  function overflow(after: bigint, max: bigint): string | null {
    if (after > max) return `魔力值超出站点字段的上限：发放后为 ${formatTenths(after)}，users.seedbonus 最多 ${formatTenths(max)}`
    if (wholePoints(after) > INT_MAX) return `魔力值超出站点魔力记录（bonus_logs）整数字段的上限：发放后为 ${formatTenths(after)}`
    return null
  }

  async function insertLog(
    conn: PoolConnection,
    uid: number,
    before: bigint,
    credit: bigint,
    after: bigint,
    comment: string,
  ): Promise<number> {
    const [result] = await conn.query<ResultSetHeader>(
      'INSERT INTO bonus_logs (business_type, uid, old_total_value, value, new_total_value, comment, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, NOW(), NOW())',
      [ROLE_WORK_SALARY, uid, String(wholePoints(before)), String(wholePoints(credit)), String(wholePoints(after)), comment],
    )
    return result.insertId
  }

  async function insertMessage(conn: PoolConnection, uid: number, subject: string, message: string): Promise<number> {
    const [result] = await conn.query<ResultSetHeader>(
      "INSERT INTO messages (sender, receiver, added, subject, msg, unread) VALUES (0, ?, NOW(), ?, ?, 'yes')",
      [uid, subject, message],
    )
    return result.insertId
  }

  const addBonus = (conn: PoolConnection, uid: number, credit: bigint) =>
    conn.query('UPDATE users SET seedbonus = seedbonus + ? WHERE id = ?', [formatTenths(credit), uid])

  /** Runs `work` on one connection holding the member's named lock. */
  async function withMemberLock(
    uid: number,
    work: (conn: PoolConnection) => Promise<PayOutcome>,
    cutReason: (error: unknown) => PayOutcome,
  ): Promise<PayOutcome> {
    let conn: PoolConnection
    try {
      conn = await pool.getConnection()
    } catch (error) {
      return { state: 'failed', reason: writeErrorReason(error) }
    }
    let broken = false
    try {
      const [rows] = await conn.query<RowDataPacket[]>('SELECT GET_LOCK(?, ?) AS got', [`seeding-console:payout:${uid}`, LOCK_WAIT_SEC])
      if (Number(rows[0]?.got) !== 1) return { state: 'pending', reason: '另一个发放正在处理该会员，请稍后再试' }
      return await work(conn)
    } catch (error) {
      broken = isConnectionLost(error)
      return cutReason(error)
    } finally {
      if (broken) conn.destroy()
      else {
        await conn.query('SELECT RELEASE_LOCK(?)', [`seeding-console:payout:${uid}`]).catch(() => {})
        conn.release()
      }
    }
  }

  async function payTransactional(member: MemberPayout, uid: number, max: bigint): Promise<PayOutcome> {
    let committing = false
    return withMemberLock(
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
          const tooBig = overflow(after, max)
          if (tooBig) {
            await conn.rollback()
            return { state: 'failed', reason: tooBig }
          }
          const plan = member.claims ? await planClaims(conn, uid, member.claims, true) : null
          const texts = member.texts(before, after, (plan && claimsNote(plan)) ?? undefined)
          await addBonus(conn, uid, member.credit)
          const logId = await insertLog(conn, uid, before, member.credit, after, texts.comment)
          const messageId = await insertMessage(conn, uid, texts.subject, texts.message)
          if (plan) await applyClaims(conn, uid, member.claims!, member.entry.ledger_key, plan)
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

  async function payStatementwise(member: MemberPayout, uid: number, max: bigint, rest?: 'markDone' | 'payRest'): Promise<PayOutcome> {
    let evidence: Evidence | null = null
    /** Bonus, log and message are in: what is left is the claims, each step safe to repeat. */
    let settling = false
    const plan = async (conn: PoolConnection): Promise<ClaimPlan | null> =>
      member.claims ? planClaims(conn, uid, member.claims, false) : null
    const settle = async (conn: PoolConnection, claims: ClaimPlan | null) => {
      if (!claims) return
      settling = true
      await applyClaims(conn, uid, member.claims!, member.entry.ledger_key, claims, (name) => step(name, member))
    }
    return withMemberLock(
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
            const tooBig = overflow(after, max)
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
        const tooBig = overflow(after, max)
        if (tooBig) return { state: 'failed', reason: tooBig }
        const claims = await plan(conn)
        const texts = member.texts(before, after, (claims && claimsNote(claims)) ?? undefined)
        const logId = await insertLog(conn, uid, before, member.credit, after, texts.comment)
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

  return {
    name: 'nexusphp',
    async begin(plan) {
      // Read afresh for every payout: a site may have converted its tables since the last one.
      shape = null
      const claims = plan?.settleClaims ?? false
      await site(claims)
      await checkGrants(claims)
    },
    async bonusOf(uids) {
      const out = new Map<number, bigint>()
      for (let i = 0; i < uids.length; i += 500) {
        const chunk = uids.slice(i, i + 500)
        if (!chunk.length) break
        try {
          const [rows] = await pool.query<RowDataPacket[]>('SELECT id, seedbonus FROM users WHERE id IN (?)', [chunk])
          for (const row of rows) out.set(Number(row.id), parseTenths(String(row.seedbonus)))
        } catch (error) {
          throw new PayoutError(`读取站点魔力失败：${writeErrorReason(error)}`)
        }
      }
      return out
    },
    async previewClaims(members) {
      const out = new Map<number, string | null>()
      let conn: PoolConnection
      try {
        conn = await pool.getConnection()
      } catch (error) {
        throw new PayoutError(`读取站点认领失败：${writeErrorReason(error)}`)
      }
      try {
        for (const { wageId, uid, claims } of members) out.set(wageId, claimsNote(await planClaims(conn, uid, claims, false)))
      } catch (error) {
        throw new PayoutError(`读取站点认领失败：${writeErrorReason(error)}`)
      } finally {
        conn.release()
      }
      return out
    },
    async pay(member) {
      const uid = member.wage.siteUid
      if (uid === null) return { state: 'failed', reason: '该保种员没有绑定站点 UID，无法发放到站点' }
      const { transactional, maxBonus } = await site(member.claims !== null)
      await step('begin', member)
      return transactional ? payTransactional(member, uid, maxBonus) : payStatementwise(member, uid, maxBonus)
    },
    async settle(member, action) {
      const uid = member.wage.siteUid
      if (uid === null) return { state: 'failed', reason: '该保种员没有绑定站点 UID' }
      const { maxBonus } = await site(member.claims !== null)
      return payStatementwise(member, uid, maxBonus, action)
    },
    close: () => pool.end(),
  }
}
