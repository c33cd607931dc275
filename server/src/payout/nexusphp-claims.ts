/**
 * NexusPHP's monthly claim bookkeeping, done by the payout when the rules say `settleClaims`
 * so the site's claim pages stay right and its claim cron can be switched off.
 * Written from what NexusPHP's ClaimRepository::settleUser does to a member's claims:
 *
 * - a claim that reached the standard (seed time or uploaded since its begins, at the month's end), and a
 *   claim made during the month that did not yet, starts again: `seed_time_begin`/`uploaded_begin` = the
 *   snatch's counters at the month's end (our snapshot of the next day: the site's cron settles on the 1st;
 *   a payout days later must not take those days from the next month), `last_settle_at` = that snapshot's day
 *   (the site's counters now and `last_settle_at` = now where we have no snapshot);
 * - a claim made before the month and still unreached is removed, and the member loses the
 *   configured deduction per removed claim;
 * - a claim whose torrent or snatch the site no longer has is removed without a deduction (NexusPHP's
 *   settleUser since it checks them; before, such a claim failed the member's whole settlement).
 *
 * Every step is safe to repeat, which is what lets a cut one (MyISAM) simply run again:
 * - a claim is touched only while `last_settle_at` is before the month's end (not yet settled for it);
 * - the deduction is made once by the bonus change that notes `[<ledger key>:claims]` in users.bonuscomment
 *   (nexusphp-rows.ts changeBonusOnce), then logged in a bonus log row carrying the same tag; a later run
 *   finds the line and only writes the row if it is missing; an attempt notes on the entry that it sends the
 *   deduction (`claims_sent_at`), so a later one finding neither line nor row stops at 待核对 (DeductionGuard);
 * - the removed claims are deleted after the deduction, so a cut there is finished by the next run.
 */
import type { Pool, PoolConnection, RowDataPacket } from 'mysql2/promise'
import { z } from '@shared/validation'
import { numberOr, wageSettingNames } from '../sources/nexusphp/site-settings'
import { bonusMark, changeBonusOnce, laravelNow, logValues, type LogColumns } from './nexusphp-rows'
import { formatTenths, parseTenths } from './tenths'
import type { ClaimSettlement } from './target'

/** NexusPHP has no bonus log type of its own for removed claims; this is its "task unfinished deduct". */
export const CLAIM_REMOVE_DEDUCT_TYPE = 20

export const claimsTag = (key: string) => `[${key}:claims]`

interface ClaimRow {
  id: number
  torrentName: string
  reached: boolean
  /** Made before the month. */
  old: boolean
  seedtime: string
  uploaded: string
  /**
   * Where it restarts from the counters of our first snapshot after the month: that day's start as the site's local
   * DATETIME (the next month's 1st, later where the server was down then); null: from the site's counters now.
   */
  from: string | null
}

export interface ClaimPlan {
  /** The month settled ("YYYY-MM"). */
  period: string
  restart: ClaimRow[]
  remove: ClaimRow[]
  /** Claims of a torrent or snatch the site has deleted: removed, nothing deducted. */
  gone: ClaimRow[]
  deduction: bigint
}

/**
 * claims.created_at/updated_at are Laravel's TIMESTAMPs: it sets no session time zone, so the site's wall clock is
 * stored as the database server's time. This session is in the site's zone (the writer's pool), so a column is read
 * back as that wall clock, and NOW() written as Laravel would have written it (as the sync reads them: reader.ts).
 */
const laravelWallClock = (column: string) => `CONVERT_TZ(${column}, @@session.time_zone, @@global.time_zone)`

/** The month's second day, as the site's local DATETIME: a settlement since is not the site's cron of the 1st. */
const secondDay = (period: string) => `${period}-02 00:00:00`

/** The month as the site's local DATETIMEs: its first instant and the first instant after it. */
export function monthBounds(period: string): { start: string; end: string } {
  const [year, month] = period.split('-').map(Number) as [number, number]
  const next = month === 12 ? `${year + 1}-01` : `${year}-${String(month + 1).padStart(2, '0')}`
  return { start: `${period}-01 00:00:00`, end: `${next}-01 00:00:00` }
}

/**
 * The months not over on the site's clock (the writer's sessions are in the site's zone). Settling before a month's end
 * would restart claims with a `last_settle_at` inside the month, and a repeated run would take them as unsettled.
 */
export async function monthsNotOver(pool: Pool, periods: string[]): Promise<string[]> {
  const [rows] = await pool.query<RowDataPacket[]>("SELECT DATE_FORMAT(NOW(), '%Y-%m-%d %H:%i:%s') AS now")
  const now = String(rows[0]?.now)
  return periods.filter((period) => now < monthBounds(period).end)
}

/** When a claim has reached the standard: this much seeding, or this many times the torrent's size uploaded, since its begins. */
export interface ClaimStandards {
  seedSeconds: number
  uploadedTimes: number
}

/**
 * The site's own claim standards (`torrent.claim_reach_standard_*`, NexusPHP's defaults where a row is absent): what its
 * claim pages and its cron call reached. Not the rules' standards — in the team's own wage mode those are the team's, and
 * a claim judged by them would be removed and fined though the site shows it reached.
 */
export async function readClaimStandards(conn: Pool | PoolConnection): Promise<ClaimStandards> {
  const [seedName, seedDefault] = wageSettingNames.standardSeedHours
  const [uploadedName, uploadedDefault] = wageSettingNames.standardUploadedTimes
  const [rows] = await conn.query<RowDataPacket[]>('SELECT name, value FROM settings WHERE name IN (?, ?)', [seedName, uploadedName])
  const setting = new Map(rows.map((r) => [String(r.name), r.value === null ? null : String(r.value)]))
  return {
    seedSeconds: numberOr(setting.get(seedName), seedDefault) * 3600,
    uploadedTimes: numberOr(setting.get(uploadedName), uploadedDefault),
  }
}

/**
 * The member's claims not yet settled for the month (made before its end), and what settling does to
 * each, judged by the site's `standards`. `lock`: read under row locks (InnoDB, inside the member's transaction).
 */
export async function planClaims(
  conn: PoolConnection,
  uid: number,
  rule: ClaimSettlement,
  standards: ClaimStandards,
  lock: boolean,
): Promise<ClaimPlan> {
  const { start, end } = monthBounds(rule.period)
  // Only the claim rows are locked: the snatch and torrent rows are the announce's, and only read.
  if (lock) await conn.query('SELECT id FROM claims WHERE uid = ? FOR UPDATE', [uid])
  const [rows] = await conn.query<RowDataPacket[]>(
    `SELECT c.id, c.torrent_id, c.seed_time_begin, c.uploaded_begin, ${laravelWallClock('c.created_at')} < ? AS old,
            c.last_settle_at IS NOT NULL AND c.last_settle_at >= ? AS begunInMonth,
            s.id IS NULL OR t.id IS NULL AS gone, s.seedtime, s.uploaded, t.size, t.name
       FROM claims c
       LEFT JOIN snatched s ON s.id = c.snatched_id
       LEFT JOIN torrents t ON t.id = c.torrent_id
      WHERE c.uid = ? AND ${laravelWallClock('c.created_at')} < ? AND (c.last_settle_at IS NULL OR c.last_settle_at < ?)
      ORDER BY c.id`,
    [start, secondDay(rule.period), uid, end, end],
  )
  const gone: ClaimRow[] = []
  const claims: ClaimRow[] = []
  for (const r of rows) {
    const claim = {
      id: Number(r.id),
      torrentName: r.name === null || r.name === undefined ? `种子 #${r.torrent_id}` : String(r.name),
      reached: false,
      old: Number(r.old) === 1,
      seedtime: String(r.seedtime),
      uploaded: String(r.uploaded),
      from: null as string | null,
    }
    if (Number(r.gone) === 1) {
      // Gone now, but kept at the month's end (its counters and size then): the site's cron on the 1st found it there,
      // and judged it — an old unreached claim is removed with the deduction, as NexusPHP's settleUser removes it.
      const kept = rule.atMonthEnd?.counters.get(Number(r.torrent_id))
      const unreached =
        kept !== undefined &&
        kept.size !== null &&
        Number(r.begunInMonth) !== 1 &&
        kept.seedtime - Number(r.seed_time_begin) < standards.seedSeconds &&
        BigInt(kept.uploaded) - BigInt(r.uploaded_begin) < BigInt(Math.ceil(standards.uploadedTimes * kept.size))
      if (unreached && claim.old) claims.push({ ...claim, seedtime: String(kept.seedtime), uploaded: String(kept.uploaded) })
      else gone.push(claim)
      continue
    }
    // The snatch's counters at the month's end (our snapshot), as the site's settlement on the 1st reads them; the
    // site's now where there is none, or where it is not this snatch's (below the begins or above now: re-created).
    const end = rule.atMonthEnd?.counters.get(Number(r.torrent_id))
    const fits =
      end !== undefined &&
      end.seedtime >= Number(r.seed_time_begin) &&
      end.seedtime <= Number(r.seedtime) &&
      BigInt(end.uploaded) >= BigInt(r.uploaded_begin) &&
      BigInt(end.uploaded) <= BigInt(r.uploaded)
    const [seedtime, uploadedNow] = fits ? [end.seedtime, BigInt(end.uploaded)] : [Number(r.seedtime), BigInt(r.uploaded)]
    claim.seedtime = String(seedtime)
    claim.uploaded = String(uploadedNow)
    claim.from = fits ? dayStart(rule.atMonthEnd!.day) : null
    // Begins set inside the month (a payout made days after the last month's end, before 0.3.2 or without a
    // snapshot): judged up to now, about a month since then, as they were set — not up to the month's end, a
    // window of days that would remove a claim kept seeding. They start again from the month's end all the same.
    const judged = Number(r.begunInMonth) === 1 ? ([Number(r.seedtime), BigInt(r.uploaded)] as const) : ([seedtime, uploadedNow] as const)
    const seeded = judged[0] - Number(r.seed_time_begin)
    const uploaded = judged[1] - BigInt(r.uploaded_begin)
    const needed = BigInt(Math.ceil(standards.uploadedTimes * Number(r.size)))
    claims.push({ ...claim, reached: seeded >= standards.seedSeconds || uploaded >= needed })
  }
  const remove = claims.filter((c) => !c.reached && c.old)
  return {
    period: rule.period,
    restart: claims.filter((c) => c.reached || !c.old),
    remove,
    gone,
    deduction: rule.removeDeduction * BigInt(remove.length),
  }
}

const toldClaim = z.object({
  id: z.number().int(),
  torrentName: z.string(),
  reached: z.boolean(),
  old: z.boolean(),
  seedtime: z.string().regex(/^\d+$/),
  uploaded: z.string().regex(/^\d+$/),
  from: z.string().nullable(),
})
const toldPlan = z.object({
  period: z.string(),
  restart: z.array(toldClaim),
  remove: z.array(toldClaim),
  gone: z.array(toldClaim),
  deduction: z.string().regex(/^-?\d+$/),
})

/** The plan as the ledger entry keeps what the member was told (SentNotes.tell). */
export const writeToldPlan = (plan: ClaimPlan): string => JSON.stringify({ ...plan, deduction: String(plan.deduction) })

/** The plan the member was told for the month, as noted on the entry; null where none was, or it is not readable. */
export function readToldPlan(text: string | null, period: string): ClaimPlan | null {
  if (text === null) return null
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return null
  }
  const plan = toldPlan.safeParse(parsed)
  if (!plan.success || plan.data.period !== period) return null
  return { ...plan.data, deduction: BigInt(plan.data.deduction) }
}

/** A snapshot day (yyyymmdd) as the site's local DATETIME of its start. */
const dayStart = (day: number) => `${String(day).replace(/^(\d{4})(\d{2})(\d{2})$/, '$1-$2-$3')} 00:00:00`
/** "2026-02-01 00:00:00" → "2 月 1 日". */
const monthDay = (datetime: string) => `${Number(datetime.slice(5, 7))} 月 ${Number(datetime.slice(8, 10))} 日`

/** What the member's message says about the settled claims; null when there were none. */
export function claimsNote(plan: ClaimPlan): string | null {
  if (!plan.restart.length && !plan.remove.length && !plan.gone.length) return null
  const lines = ['认领结算：']
  // Each group of restarted claims says from when it counts again: the snapshot's day (the next month's 1st, as the
  // site's own settlement has it), or the payout's moment where no snapshot had the claim.
  const from = new Map<string | null, number>()
  for (const claim of plan.restart) from.set(claim.from, (from.get(claim.from) ?? 0) + 1)
  for (const [day, count] of [...from].sort(([a], [b]) => (a === b ? 0 : a === null ? 1 : b === null || a < b ? -1 : 1)))
    lines.push(`- ${count} 个认领从${day === null ? '现在' : ` ${monthDay(day)}`}起重新计算做种时长和上传量。`)
  if (plan.gone.length) lines.push(`- ${plan.gone.length} 个认领的种子或下载记录已被站点删除，已取消认领（不扣魔力）。`)
  if (plan.remove.length) {
    lines.push(`- ${plan.remove.length} 个认领超过一个月未达标，已取消认领，共扣除 ${formatTenths(plan.deduction)} 魔力：`)
    for (const claim of plan.remove.slice(0, 20)) lines.push(`  · ${claim.torrentName}`)
    if (plan.remove.length > 20) lines.push(`  · ……另有 ${plan.remove.length - 20} 个`)
  }
  return lines.join('\n')
}

/**
 * What an attempt knows of the deduction beyond the site's rows (statement by statement only): that an earlier
 * attempt sent it (`sentBefore`), how to note that this one sends it, and the admin's settlement of 待核对.
 */
export interface DeductionGuard {
  sentBefore: boolean
  noteSent: () => Promise<void>
  rest?: 'markDone' | 'payRest'
}

/**
 * Applies the plan (see the module comment for why each step may run again). `unknown`: an earlier attempt sent the
 * deduction and neither its bonuscomment line nor its log row is there — the site may have overwritten the line after
 * it landed; nothing is changed until the admin settles it (`rest`: markDone = it landed, payRest = take it now).
 */
export async function applyClaims(
  conn: PoolConnection,
  uid: number,
  /** null: the plan the member was told (noted on the entry), settled as it is — whatever the rules say now. */
  rule: ClaimSettlement | null,
  key: string,
  plan: ClaimPlan,
  log: LogColumns,
  onStep?: (step: string) => Promise<void>,
  guard?: DeductionGuard,
): Promise<'settled' | 'unknown'> {
  if (!plan.restart.length && !plan.remove.length && !plan.gone.length) return 'settled'
  const { end } = monthBounds(plan.period)
  const tag = claimsTag(key)
  const [earlier] = await conn.query<RowDataPacket[]>(
    'SELECT id FROM bonus_logs WHERE uid = ? AND business_type = ? AND comment LIKE ? LIMIT 1',
    [uid, CLAIM_REMOVE_DEDUCT_TYPE, `%${tag}%`],
  )
  // Once an attempt has sent the deduction, what it was for is fixed: that attempt restarted every other claim first,
  // so each old claim still unsettled was unreached then — one that reached the standard since goes all the same, as
  // the member was charged (and told) for it.
  // (A plan the member was told, `rule` null, is that attempt's own: nothing to infer.)
  if (rule && (earlier.length || guard?.sentBefore || (await bonusMark(conn, uid, tag)) !== null)) plan = asDeducted(plan, rule)
  for (const claim of plan.restart) {
    // Dated when its begins were taken, as the site's cron on the 1st dates it: a settlement from the 1st's counters
    // dated days later would count as begun inside the next month, and that month be judged up to its payout day
    // rather than its end (planClaims' begunInMonth).
    await conn.query(
      `UPDATE claims SET seed_time_begin = ?, uploaded_begin = ?, last_settle_at = COALESCE(?, NOW()), updated_at = ${laravelNow} WHERE id = ? AND uid = ? AND (last_settle_at IS NULL OR last_settle_at < ?)`,
      [claim.seedtime, claim.uploaded, claim.from, claim.id, uid, end],
    )
  }
  if (plan.gone.length)
    await conn.query(`DELETE FROM claims WHERE uid = ? AND id IN (${inList(plan.gone)})`, [uid, ...plan.gone.map((c) => c.id)])
  if (!plan.remove.length) return 'settled'
  await onStep?.('claims-restarted')
  // A log row without the bonuscomment line is an earlier version's, which wrote it before the deduction: made at most
  // once there, so not made again.
  if (!earlier.length && plan.deduction > 0n) {
    const described = (amount: bigint) => `认领结算 ${plan.period}：取消 ${plan.remove.length} 个未达标认领，扣除 ${formatTenths(amount)}`
    const what = described(plan.deduction)
    // The admin's settlement applies to a deduction in doubt only (an entry settled for its credit deducts as usual).
    let landed = false
    if (guard && (await bonusMark(conn, uid, tag)) === null) {
      if (guard.sentBefore && !guard.rest) return 'unknown'
      landed = guard.sentBefore && guard.rest === 'markDone'
      if (!landed) {
        await guard.noteSent()
        await onStep?.('claims-noted')
      }
    }
    if (!landed) await changeBonusOnce(conn, uid, -plan.deduction, what, tag)
    await onStep?.('claims-deducted')
    const mark = await bonusMark(conn, uid, tag)
    const [bonus] = await conn.query<RowDataPacket[]>('SELECT seedbonus FROM users WHERE id = ?', [uid])
    const after = mark?.bonusAfter ? parseTenths(mark.bonusAfter) : parseTenths(String(bonus[0]?.seedbonus ?? '0'))
    const before = mark?.bonusBefore ? parseTenths(mark.bonusBefore) : after + plan.deduction
    // What the statement took, as its line has it: a retry's plan may price it otherwise (the rules changed since).
    const taken = mark?.bonusBefore && mark.bonusAfter ? before - after : plan.deduction
    const comment = `${described(taken)}（魔力 ${formatTenths(before)} → ${formatTenths(after)}）${tag}`
    await conn.query(
      `INSERT INTO bonus_logs (business_type, uid, old_total_value, value, new_total_value, comment, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ${laravelNow}, ${laravelNow})`,
      [CLAIM_REMOVE_DEDUCT_TYPE, uid, ...logValues(before, taken, after, log), comment.slice(0, 255)],
    )
    await onStep?.('claims-logged')
  }
  await conn.query(`DELETE FROM claims WHERE uid = ? AND id IN (${inList(plan.remove)})`, [uid, ...plan.remove.map((c) => c.id)])
  return 'settled'
}

/** The plan of a retry after the deduction was sent: every old claim not yet settled is one it was taken for. */
function asDeducted(plan: ClaimPlan, rule: ClaimSettlement): ClaimPlan {
  const remove = [...plan.remove, ...plan.restart.filter((c) => c.old)].sort((a, b) => a.id - b.id)
  return { ...plan, restart: plan.restart.filter((c) => !c.old), remove, deduction: rule.removeDeduction * BigInt(remove.length) }
}

const inList = (claims: ClaimRow[]) => claims.map(() => '?').join(', ')

/** The probes of the grants settling claims needs (tried with `WHERE 1 = 0`, writing nothing). */
export const claimGrantProbes = [
  'SELECT id, uid, torrent_id, snatched_id, seed_time_begin, uploaded_begin, last_settle_at, created_at FROM claims WHERE 1 = 0',
  'UPDATE claims SET seed_time_begin = seed_time_begin, uploaded_begin = uploaded_begin, last_settle_at = last_settle_at, updated_at = updated_at WHERE 1 = 0',
  'DELETE FROM claims WHERE 1 = 0',
  'SELECT id, seedtime, uploaded FROM snatched WHERE 1 = 0',
  'SELECT id, size, name FROM torrents WHERE 1 = 0',
  'SELECT name, value FROM settings WHERE 1 = 0',
]
