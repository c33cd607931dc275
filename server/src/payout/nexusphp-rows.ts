/**
 * The NexusPHP rows a payout reads and writes on one connection: the member's seedbonus, the bonus
 * log row and the message — both carrying the ledger key, which is how a retry finds what an
 * earlier attempt left — and the limits a credit must stay within.
 */
import type { PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise'
import type { Evidence } from './ledger'
import { keyTag } from './texts'
import { formatTenths, parseTenths, wholePoints } from './tenths'

/** NexusPHP's bonus_logs business_type of a role's work salary. */
export const ROLE_WORK_SALARY = 1000
const INT_MAX = 2_147_483_647n

/** The rows an earlier attempt left: the log row and the message that carry the key. */
export async function landed(
  conn: PoolConnection,
  uid: number,
  key: string,
): Promise<{ log: RowDataPacket | null; messageId: number | null }> {
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
export function logEvidence(log: RowDataPacket, messageId: number | null): Evidence {
  const exact = /魔力 (-?\d+\.\d) → (-?\d+\.\d)/.exec(String(log.comment ?? ''))
  return {
    bonusBefore: exact ? exact[1] : formatTenths(BigInt(log.old_total_value) * 10n),
    bonusAfter: exact ? exact[2] : formatTenths(BigInt(log.new_total_value) * 10n),
    logId: Number(log.id),
    messageId,
  }
}

export async function bonusRow(conn: PoolConnection, uid: number, forUpdate: boolean): Promise<bigint | null> {
  const [rows] = await conn.query<RowDataPacket[]>(`SELECT seedbonus FROM users WHERE id = ?${forUpdate ? ' FOR UPDATE' : ''}`, [uid])
  return rows[0] ? parseTenths(String(rows[0].seedbonus)) : null
}

/** Why `after` cannot be written (users.seedbonus holds at most `max` tenths, bonus_logs whole points an int), or null. */
export function overflow(after: bigint, max: bigint): string | null {
  if (after > max) return `魔力值超出站点字段的上限：发放后为 ${formatTenths(after)}，users.seedbonus 最多 ${formatTenths(max)}`
  if (wholePoints(after) > INT_MAX) return `魔力值超出站点魔力记录（bonus_logs）整数字段的上限：发放后为 ${formatTenths(after)}`
  return null
}

/**
 * NOW() as NexusPHP stores it in a TIMESTAMP column (bonus_logs.created_at/updated_at, claims.updated_at): Laravel
 * writes the site's wall clock through a connection that sets no time zone, so the server keeps that text as a time
 * of its own zone. The writer's session is in the site's zone (nexusphp-writer.ts), whose plain NOW() would be read
 * back by the site hours off whenever the database server's zone is another.
 */
export const laravelNow = 'CONVERT_TZ(NOW(), @@global.time_zone, @@session.time_zone)'

export async function insertLog(
  conn: PoolConnection,
  uid: number,
  before: bigint,
  credit: bigint,
  after: bigint,
  comment: string,
): Promise<number> {
  const [result] = await conn.query<ResultSetHeader>(
    `INSERT INTO bonus_logs (business_type, uid, old_total_value, value, new_total_value, comment, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ${laravelNow}, ${laravelNow})`,
    [ROLE_WORK_SALARY, uid, String(wholePoints(before)), String(wholePoints(credit)), String(wholePoints(after)), comment],
  )
  return result.insertId
}

export async function insertMessage(conn: PoolConnection, uid: number, subject: string, message: string): Promise<number> {
  const [result] = await conn.query<ResultSetHeader>(
    "INSERT INTO messages (sender, receiver, added, subject, msg, unread) VALUES (0, ?, NOW(), ?, ?, 'yes')",
    [uid, subject, message],
  )
  return result.insertId
}

export const addBonus = (conn: PoolConnection, uid: number, credit: bigint) =>
  conn.query('UPDATE users SET seedbonus = seedbonus + ? WHERE id = ?', [formatTenths(credit), uid])
