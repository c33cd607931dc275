/**
 * Pays into a NexusPHP site over a second connection (NEXUSPHP_WRITE_DATABASE_URL, an account with
 * only the grants README lists): `users.seedbonus` += the wage, a `bonus_logs` row (business_type
 * 1000, NexusPHP's "role work salary") and a message, each carrying the ledger key, the credit noted in
 * `users.bonuscomment` with the key as NexusPHP notes its own bonus changes.
 *
 * Before paying, the site's tables, engines and grants are checked (nexusphp-site-shape.ts). Then each
 * member is paid under a named lock of their own (nexusphp-member-lock.ts) by steps that are each safe to
 * repeat (nexusphp-pay.ts): in one transaction when the written tables are all InnoDB, statement by
 * statement on MyISAM (v1.6 installs), where a cut attempt is finished by the next.
 * With the rules' `settleClaims` the member's claims are settled too (nexusphp-claims.ts).
 */
import mysql from 'mysql2/promise'
import type { Pool, PoolConnection, RowDataPacket } from 'mysql2/promise'
import { DEFAULT_NEXUSPHP_TIMEZONE } from '../config'
import { poolOptions, SITE_SESSION_SQL_MODE, zoneOffset } from '../sources/nexusphp/connection'
import { claimsNote, monthsNotOver, planClaims, readClaimStandards, readToldPlan } from './nexusphp-claims'
import { writeErrorReason } from './nexusphp-errors'
import type { PayContext } from './nexusphp-member-lock'
import { payMember } from './nexusphp-pay'
import { landed, overflow } from './nexusphp-rows'
import { parseTenths } from './tenths'
import { checkGrants, readSiteShape, type SiteShape } from './nexusphp-site-shape'
import { PayoutError, type ClaimsPreview, type MemberPayout, type PayoutTarget, type StepHook } from './target'
import { bmpOnly } from './texts'

export interface NexusphpWriterOptions {
  databaseUrl: string
  timezone?: string
  onStep?: StepHook
  /** Test hook: called when `begin` has checked the site. */
  onBegun?: () => Promise<void>
}

export function nexusphpWriter(options: NexusphpWriterOptions): PayoutTarget {
  let base
  try {
    base = poolOptions({ databaseUrl: options.databaseUrl }, 'NEXUSPHP_WRITE_DATABASE_URL')
  } catch (error) {
    throw new PayoutError((error as Error).message)
  }
  const pool: Pool = mysql.createPool({ ...base, connectionLimit: 4, maxIdle: 2, decimalNumbers: false })
  pool.on('connection', (connection) => {
    const core = connection as unknown as { query(sql: string, values: unknown[], callback: (error: unknown) => void): void }
    // Before any value is sent: the escaping of every text we write depends on it. A session where it
    // could not be set is dropped, so no statement of a payout ever runs with the site's own mode.
    core.query(`SET SESSION sql_mode = '${SITE_SESSION_SQL_MODE}'`, [], (error) => {
      if (error) connection.destroy()
    })
    // A server with autocommit off (my.cnf, init_connect) would leave every statement outside our own transactions
    // uncommitted — on a v1.6 site the InnoDB claims a payout settled, rolled back when the pool closed the connection.
    core.query('SET SESSION autocommit = 1', [], (error) => {
      if (error) connection.destroy()
    })
  })
  // NexusPHP writes DATETIMEs in the site's local time; NOW() is taken in that zone. A session left in another
  // zone would date the member's message hours off: dropped like one without the sql_mode. Its offset at each checkout
  // (before the statements of the one who took it): one taken when the server started is an hour off after a
  // daylight-saving change.
  const siteZone = options.timezone || DEFAULT_NEXUSPHP_TIMEZONE
  pool.on('acquire', (connection) => {
    const core = connection as unknown as { query(sql: string, values: unknown[], callback: (error: unknown) => void): void }
    core.query('SET time_zone = ?', [zoneOffset(siteZone)], (error) => {
      if (error) connection.destroy()
    })
  })
  const paying: PayContext = { pool, step: async (name, member) => options.onStep?.(name, member.entry) }
  let shape: SiteShape | null = null

  async function site(claims = false): Promise<SiteShape> {
    if (!shape || (claims && !shape.claims)) {
      try {
        shape = await readSiteShape(pool, claims)
      } catch (error) {
        throw error instanceof PayoutError ? error : new PayoutError(writeErrorReason(error))
      }
    }
    return shape
  }

  return {
    name: 'nexusphp',
    async begin(plan) {
      // Read afresh for every payout: a site may have converted its tables since the last one.
      shape = null
      const claims = plan?.settleClaims ?? false
      await site(claims)
      await checkGrants(pool, claims)
      await options.onBegun?.()
    },
    async monthsNotOver(periods) {
      try {
        return await monthsNotOver(pool, periods)
      } catch (error) {
        throw new PayoutError(writeErrorReason(error))
      }
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
    async bonusLimit() {
      const { maxBonus, log } = await site()
      return (after) => overflow(after, maxBonus, log)
    },
    async previewClaims(members) {
      const out = new Map<number, ClaimsPreview>()
      let conn: PoolConnection
      try {
        conn = await pool.getConnection()
      } catch (error) {
        throw new PayoutError(`读取站点认领失败：${writeErrorReason(error)}`)
      }
      try {
        // Read afresh for each dry run, as each payout reads them (begin): the site's admin may have changed them since.
        const standards = await readClaimStandards(conn)
        for (const { wageId, uid, claims, entry } of members) {
          // As the run decides it (nexusphp-pay.ts `told`): a plan an earlier attempt told the member is finished as told.
          const told = entry?.told ? readToldPlan(entry.told, claims.period) : null
          const sent = told !== null && (entry!.claimsSent || (await landed(conn, uid, entry!.key)).messageId !== null)
          const plan = sent ? told : await planClaims(conn, uid, claims, standards, false)
          out.set(wageId, { note: claimsNote(plan), deduction: plan.deduction })
        }
      } catch (error) {
        throw new PayoutError(`读取站点认领失败：${writeErrorReason(error)}`)
      } finally {
        conn.release()
      }
      return out
    },
    async pay(payout) {
      const uid = payout.wage.siteUid
      if (uid === null) return { state: 'failed', reason: '该保种员没有绑定站点 UID，无法发放到站点' }
      const shape = await site(payout.claims !== null)
      const member = shape.bmpMessages ? withBmpMessage(payout) : payout
      await paying.step('begin', member)
      return payMember(paying, member, uid, shape)
    },
    async settle(payout, action) {
      const uid = payout.wage.siteUid
      if (uid === null) return { state: 'failed', reason: '该保种员没有绑定站点 UID' }
      // An admin's click, maybe days after the last payout read the site: its engines and claim standards read afresh.
      shape = null
      const now = await site(payout.claims !== null)
      return payMember(paying, now.bmpMessages ? withBmpMessage(payout) : payout, uid, now, action)
    },
    close: () => pool.end(),
  }
}

/** The member's subject and message for a utf8mb3 `messages` table (v1.6), which refuses characters beyond U+FFFF. */
function withBmpMessage(member: MemberPayout): MemberPayout {
  return {
    ...member,
    texts: (before, after, note) => {
      const texts = member.texts(before, after, note)
      return { ...texts, subject: bmpOnly(texts.subject), message: bmpOnly(texts.message) }
    },
  }
}
