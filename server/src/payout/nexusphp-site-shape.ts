/**
 * What the NexusPHP writer checks before paying anyone: the tables exist and which engine holds
 * them (all InnoDB: one transaction per member; otherwise statement by statement), the size of
 * users.seedbonus, and every grant the payout needs — so a missing one stops the payout before the
 * first member instead of between two statements of a non-transactional site.
 */
import type { Pool, RowDataPacket } from 'mysql2/promise'
import { claimGrantProbes, readClaimStandards, type ClaimStandards } from './nexusphp-claims'
import { writeErrorReason } from './nexusphp-errors'
import { INT_MAX_TENTHS, type LogColumns } from './nexusphp-rows'
import { PayoutError } from './target'

const TABLES = ['users', 'bonus_logs', 'messages']
/** Written by the claim settlement; snatched, torrents and settings (its claim standards) are only read. */
const CLAIM_TABLES = ['claims', 'snatched', 'torrents', 'settings']

export interface SiteShape {
  transactional: boolean
  /** settleClaims: the claim tables were checked, and these are the site's claim standards (read then); null otherwise. */
  claims: ClaimStandards | null
  /** Largest seedbonus the column holds, in tenths. */
  maxBonus: bigint
  /** messages.subject/msg are utf8mb3 (v1.6's `DEFAULT CHARSET=utf8`): no character beyond U+FFFF fits. */
  bmpMessages: boolean
  /** How bonus_logs keeps its old/value/new columns. */
  log: LogColumns
}

export async function readSiteShape(pool: Pool, claims: boolean): Promise<SiteShape> {
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
  return {
    transactional: written.every((t) => engines.get(t)?.toLowerCase() === 'innodb'),
    claims: claims ? await readClaimStandards(pool) : null,
    maxBonus: 10n ** BigInt(p) - 1n,
    bmpMessages: await messagesAreUtf8mb3(pool),
    log: await logColumns(pool),
  }
}

/**
 * NexusPHP created bonus_logs' values as int (2021: whole points); its 2023-06 migration
 * (change_bonus_log_table_value_decimal) made them decimal(20,1), and its own BonusRepository writes
 * the exact bonus there. A site migrated since must get the tenths, or the log disagrees with seedbonus.
 */
async function logColumns(pool: Pool): Promise<LogColumns> {
  const [columns] = await pool.query<RowDataPacket[]>(
    "SELECT DATA_TYPE AS t, NUMERIC_PRECISION AS p, NUMERIC_SCALE AS s FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'bonus_logs' AND COLUMN_NAME IN ('old_total_value', 'value', 'new_total_value')",
  )
  // All three must keep tenths for the exact bonus to be written (a half-migrated fork may differ);
  // the limit is the smallest column's.
  const shapes = columns.map((c) => ({ decimal: String(c.t).toLowerCase() === 'decimal', p: Number(c.p ?? 0), s: Number(c.s ?? 0) }))
  const tenths = shapes.length === 3 && shapes.every((c) => c.decimal && c.s >= 1)
  const limits = shapes.map((c) =>
    // decimal(p, s) holds p − s whole digits (in tenths p − s + 1); whole points otherwise, rounded half up into it.
    !c.decimal ? INT_MAX_TENTHS : tenths ? 10n ** BigInt(c.p - c.s + 1) - 1n : (10n ** BigInt(c.p - c.s) - 1n) * 10n + 4n,
  )
  const max = limits.length ? limits.reduce((a, b) => (b < a ? b : a)) : INT_MAX_TENTHS
  return { tenths, max }
}

/** A strict server refuses a 4-byte character in a utf8mb3 column (error 1366) instead of storing it. */
async function messagesAreUtf8mb3(pool: Pool): Promise<boolean> {
  const [columns] = await pool.query<RowDataPacket[]>(
    "SELECT CHARACTER_SET_NAME AS charset FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'messages' AND COLUMN_NAME IN ('subject', 'msg')",
  )
  return columns.some((c) => ['utf8', 'utf8mb3'].includes(String(c.charset).toLowerCase()))
}

/** The grants, tried without writing anything (`WHERE 1 = 0`). */
export async function checkGrants(pool: Pool, claims: boolean): Promise<void> {
  const base = [
    'SELECT id, seedbonus, bonuscomment FROM users WHERE 1 = 0',
    'UPDATE users SET seedbonus = seedbonus, bonuscomment = bonuscomment WHERE 1 = 0',
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
