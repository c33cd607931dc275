/**
 * The NexusPHP rows a payout reads and writes on one connection: the member's seedbonus and its
 * bonuscomment line, the bonus log row and the message — each carrying the ledger key, which is how a
 * retry finds what an earlier attempt left — and the limits a credit must stay within.
 */
import type { PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise'
import type { Evidence } from './ledger'
import { keyTag } from './texts'
import { formatTenths, parseTenths, wholePoints } from './tenths'

/** NexusPHP's bonus_logs business_type of a role's work salary. */
export const ROLE_WORK_SALARY = 1000
/** The largest bonus (tenths) whose whole points fit an int column. */
export const INT_MAX_TENTHS = 2_147_483_647n * 10n + 4n

/**
 * bonus_logs' old_total_value/value/new_total_value: whole points in int columns (NexusPHP's 2021
 * table, v1.6 installs), tenths in decimal(20,1) since its 2023-06 migration (nexusphp-site-shape.ts).
 */
export interface LogColumns {
  tenths: boolean
  /** Largest value the columns hold, in tenths. */
  max: bigint
}

/**
 * A log row's 交易前值, 交易值 and 交易后值 as bonus_logs stores them. In int columns the bonuses are rounded and the
 * change is their difference, so the row adds up on NexusPHP's 魔力记录 page: each rounded alone, 1000.5 + 2064.4 read
 * "1001 + 2064 = 3065" (found by an outside tester). The exact tenths are in the row's comment and the bonuscomment line.
 * `change` is the amount credited or taken (positive).
 */
export function logValues(before: bigint, change: bigint, after: bigint, log: LogColumns): [string, string, string] {
  if (log.tenths) return [formatTenths(before), formatTenths(change), formatTenths(after)]
  const [old, now] = [wholePoints(before), wholePoints(after)]
  return [String(old), String(now >= old ? now - old : old - now), String(now)]
}

/** What an earlier attempt left: the credit's line in users.bonuscomment, the log row and the message that carry the key. */
export async function landed(
  conn: PoolConnection,
  uid: number,
  key: string,
): Promise<{ mark: BonusMark | null; log: RowDataPacket | null; messageId: number | null }> {
  const mark = await bonusMark(conn, uid, keyTag(key))
  const tag = `%${keyTag(key)}%`
  const [logs] = await conn.query<RowDataPacket[]>(
    'SELECT id, old_total_value, new_total_value, comment FROM bonus_logs WHERE uid = ? AND business_type = ? AND comment LIKE ? ORDER BY id LIMIT 1',
    [uid, ROLE_WORK_SALARY, tag],
  )
  const [messages] = await conn.query<RowDataPacket[]>(
    'SELECT id FROM messages WHERE receiver = ? AND sender = 0 AND msg LIKE ? ORDER BY id LIMIT 1',
    [uid, tag],
  )
  return { mark, log: logs[0] ?? null, messageId: messages[0] ? Number(messages[0].id) : null }
}

/**
 * The member's wage of `period` paid under another key: a console set up afresh or restored from a backup pays the
 * same member and month under another record id. Found by the month in the log comment (every version writes
 * `保种工资 <month>…[seeding-console:wage:…]`) or in a bonuscomment line's key (`…:<month>]`); the log row, if any.
 * `othersKeys`: keys this console opened for other wage records on this uid (asked only when the month has rows) —
 * their rows are those records' payments (bindings of two members swapped and corrected since), never this one's.
 */
export async function paidForMonth(
  conn: PoolConnection,
  uid: number,
  period: string,
  othersKeys: () => Promise<ReadonlySet<string>>,
): Promise<{ log: RowDataPacket | null } | null> {
  const [logs] = await conn.query<RowDataPacket[]>(
    'SELECT id, old_total_value, new_total_value, comment FROM bonus_logs WHERE uid = ? AND business_type = ? AND comment LIKE ? ORDER BY id LIMIT 100',
    [uid, ROLE_WORK_SALARY, `保种工资 ${period}%[seeding-console:wage:%`],
  )
  const [marked] = await conn.query<RowDataPacket[]>('SELECT bonuscomment FROM users WHERE id = ? AND bonuscomment LIKE ?', [
    uid,
    `%[seeding-console:wage:%:${period}]%`,
  ])
  if (logs.length === 0 && marked.length === 0) return null
  const others = await othersKeys()
  // A comment cut short before its key is no proof of another record's: taken as this member's month.
  const notOthers = (keys: string[]) => keys.length === 0 || keys.some((key) => !others.has(key))
  const log = logs.find((row) => notOthers(keysIn(String(row.comment ?? ''))))
  if (log) return { log }
  const monthKeys = marked[0] ? keysIn(String(marked[0].bonuscomment)).filter((key) => key.endsWith(`:${period}`)) : []
  return marked[0] && notOthers(monthKeys) ? { log: null } : null
}

/** The ledger keys a site text carries (keyTag). */
const keysIn = (text: string) => [...text.matchAll(/\[(seeding-console:wage:[^\]]+)\]/g)].map((match) => match[1])

/** The bonus before and after a change, as its bonuscomment line recorded them (null: that line cannot be read). */
export interface BonusMark {
  bonusBefore: string | null
  bonusAfter: string | null
}

/** NexusPHP's users.bonuscomment is TEXT: 65,535 bytes. */
const COMMENT_COLUMN_BYTES = 65_535

/**
 * The bonuscomment below the new line: NexusPHP's own writes run without strict mode, so a busy member's comment sits
 * at the column's limit, cut there silently — where our strict session's UPDATE would fail, that member never to be
 * paid. So when the comment and the line would not fit, the comment keeps its newest `budget` bytes' worth of
 * characters and loses only the oldest, as NexusPHP's own cut would (BonusRepository prepends, nothing trims). LEFT
 * counts characters: a first guess from the comment's bytes per character, less one character per byte it is over
 * (each is at least a byte), so the kept part never passes `budget`; a quarter of `budget` when that leaves nothing.
 * `budget` is our own integer, written into the statement.
 */
function commentKept(budget: number): string {
  const guess = `FLOOR(${budget} * CHAR_LENGTH(bonuscomment) / LENGTH(bonuscomment))`
  const chars = `(${guess} - GREATEST(0, LENGTH(LEFT(bonuscomment, ${guess})) - ${budget}))`
  return `IF(LENGTH(bonuscomment) <= ${budget}, NULLIF(bonuscomment, ''),
            IF(${chars} > 0, LEFT(bonuscomment, ${chars}), LEFT(bonuscomment, ${Math.floor(budget / 4)})))`
}

/** The most bytes the new line can take: the label and the tag, the date, the words and two bonus figures of 41 characters. */
const lineBytes = (label: string, tag: string) => Buffer.byteLength(label) + Buffer.byteLength(tag) + 128

/**
 * Moves the member's seedbonus by `delta` (tenths) unless users.bonuscomment already carries `tag`, and in the same
 * statement notes it there as NexusPHP notes its own changes — "Y-m-d - <label>" on a line of its own, newest first —
 * with the bonus before and after and the tag. One row's UPDATE is atomic on MyISAM too, so the tag is the proof the
 * bonus moved, and trying again never moves it twice. The assignments run left to right (MySQL and MariaDB without
 * SIMULTANEOUS_ASSIGNMENT, which our session's sql_mode leaves out), so the line reads the bonus before the change.
 * True when it moved now.
 */
export async function changeBonusOnce(conn: PoolConnection, uid: number, delta: bigint, label: string, tag: string): Promise<boolean> {
  const amount = formatTenths(delta)
  const [result] = await conn.query<ResultSetHeader>(
    `UPDATE users
        SET bonuscomment = CONCAT_WS(?, CONCAT(DATE_FORMAT(NOW(), '%Y-%m-%d'), ' - ', ?, '，魔力 ', seedbonus, ' → ',
                                               seedbonus + CAST(? AS DECIMAL(40,1)), ' ', ?),
                                     ${commentKept(COMMENT_COLUMN_BYTES - 1 - lineBytes(label, tag))}),
            seedbonus = seedbonus + CAST(? AS DECIMAL(40,1))
      WHERE id = ? AND LOCATE(?, IFNULL(bonuscomment, '')) = 0`,
    ['\n', label, amount, tag, amount, uid, tag],
  )
  return result.affectedRows === 1
}

/** The line changeBonusOnce wrote with `tag` (its text before the tag), or null when there is none. */
export async function bonusMark(conn: PoolConnection, uid: number, tag: string): Promise<BonusMark | null> {
  const [rows] = await conn.query<RowDataPacket[]>(
    `SELECT SUBSTRING_INDEX(SUBSTRING_INDEX(bonuscomment, ?, 1), ?, -1) AS line FROM users WHERE id = ? AND LOCATE(?, IFNULL(bonuscomment, '')) > 0`,
    [tag, '\n', uid, tag],
  )
  if (!rows[0]) return null
  const exact = /魔力 (-?\d+\.\d) → (-?\d+\.\d)\s*$/.exec(String(rows[0].line ?? ''))
  return { bonusBefore: exact ? exact[1]! : null, bonusAfter: exact ? exact[2]! : null }
}

/** The bonus before and after as a log comment of ours writes them (texts.ts). */
const COMMENT_FIGURES = /魔力 (-?\d+\.\d) → (-?\d+\.\d)/

/**
 * What a log row of ours says was credited (tenths) where it says so exactly: its comment's figures, else decimal
 * columns; null where only whole points are kept (int columns round the bonus before and after).
 */
export function loggedCredit(log: RowDataPacket, columns: LogColumns): bigint | null {
  const exact = COMMENT_FIGURES.exec(String(log.comment ?? ''))
  if (exact) return parseTenths(exact[2]) - parseTenths(exact[1])
  return columns.tenths ? parseTenths(String(log.new_total_value)) - parseTenths(String(log.old_total_value)) : null
}

/** Bonus before/after as the log's comment recorded them (exact), else its whole points. */
export function logEvidence(log: RowDataPacket, messageId: number | null): Evidence {
  const exact = COMMENT_FIGURES.exec(String(log.comment ?? ''))
  return {
    bonusBefore: exact ? exact[1] : formatTenths(parseTenths(String(log.old_total_value))),
    bonusAfter: exact ? exact[2] : formatTenths(parseTenths(String(log.new_total_value))),
    logId: Number(log.id),
    messageId,
  }
}

export async function bonusRow(conn: PoolConnection, uid: number, forUpdate: boolean): Promise<bigint | null> {
  const [rows] = await conn.query<RowDataPacket[]>(`SELECT seedbonus FROM users WHERE id = ?${forUpdate ? ' FOR UPDATE' : ''}`, [uid])
  return rows[0] ? parseTenths(String(rows[0].seedbonus)) : null
}

/** Why `after` cannot be written (users.seedbonus holds at most `max` tenths, bonus_logs `log.max`), or null. */
export function overflow(after: bigint, max: bigint, log: LogColumns): string | null {
  if (after > max) return `魔力值超出站点字段的上限：发放后为 ${formatTenths(after)}，users.seedbonus 最多 ${formatTenths(max)}`
  if (after > log.max) return `魔力值超出站点魔力记录（bonus_logs）${log.tenths ? '' : '整数'}字段的上限：发放后为 ${formatTenths(after)}`
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
  log: LogColumns,
): Promise<number> {
  const [result] = await conn.query<ResultSetHeader>(
    `INSERT INTO bonus_logs (business_type, uid, old_total_value, value, new_total_value, comment, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ${laravelNow}, ${laravelNow})`,
    [ROLE_WORK_SALARY, uid, ...logValues(before, credit, after, log), comment],
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
