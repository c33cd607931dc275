/**
 * Calendar days in the rules' time zone. A day is stored as the integer yyyymmdd (20260101): compact,
 * sortable, readable in a query result, and `day % 100 === 1` is the first of a month.
 */

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
    formatters.set(timeZone, f)
  }
  return f
}

/** The wall clock in the zone at an instant: year, month (1–12), day, hour (0–23), minute, second. */
export function wallClock(ms: number, timeZone: string): { y: number; m: number; d: number; h: number; min: number; s: number } {
  const out: Record<string, number> = {}
  for (const p of formatter(timeZone).formatToParts(new Date(ms))) if (p.type !== 'literal') out[p.type] = Number(p.value)
  return { y: out.year, m: out.month, d: out.day, h: out.hour, min: out.minute, s: out.second }
}

/** The local date of `ms` in `timeZone`, as yyyymmdd. */
const two = (n: number) => String(n).padStart(2, '0')

/** Wall-clock time in the zone as text, e.g. "2026-02-03 10:00:00" (exports, messages). */
export function localDateTime(ms: number, timeZone: string): string {
  const p = wallClock(ms, timeZone)
  return `${p.y}-${two(p.m)}-${two(p.d)} ${two(p.h)}:${two(p.min)}:${two(p.s)}`
}

export function localDay(ms: number, timeZone: string): number {
  const { y, m, d } = wallClock(ms, timeZone)
  return y * 10000 + m * 100 + d
}

export function dayParts(day: number): { year: number; month: number; date: number } {
  return { year: Math.floor(day / 10000), month: Math.floor(day / 100) % 100, date: day % 100 }
}

/** Epoch ms of local midnight that starts `day` in `timeZone`. */
export function dayStart(day: number, timeZone: string): number {
  const { year, month, date } = dayParts(day)
  const utcGuess = Date.UTC(year, month - 1, date)
  // Offset of the zone around that instant; two rounds settle DST transitions.
  let ms = utcGuess
  for (let i = 0; i < 2; i++) {
    const p = wallClock(ms, timeZone)
    const asUtc = Date.UTC(p.y, p.m - 1, p.d, p.h, p.min, p.s)
    ms = utcGuess - (asUtc - ms)
  }
  if (localDay(ms, timeZone) >= day) return ms
  // No midnight that day (DST starts at 00:00: Asunción, Havana…): ms is 23:00 the day before, and the day starts
  // at the change. The first instant of the day, to the second, within the hour or two after.
  let before = ms
  let after = ms + 3 * 3_600_000
  while (after - before > 1000) {
    const mid = before + Math.floor((after - before) / 2000) * 1000
    if (localDay(mid, timeZone) < day) before = mid
    else after = mid
  }
  return after
}

/** `day` plus `n` calendar days (n may be negative). */
export function addDays(day: number, n: number): number {
  const { year, month, date } = dayParts(day)
  const t = new Date(Date.UTC(year, month - 1, date + n))
  return t.getUTCFullYear() * 10000 + (t.getUTCMonth() + 1) * 100 + t.getUTCDate()
}

/** The first day of `day`'s month. */
export function monthStart(day: number): number {
  return Math.floor(day / 100) * 100 + 1
}

/** 20260105 → "2026-01-05" */
export function dayToIso(day: number): string {
  const { year, month, date } = dayParts(day)
  return `${year}-${two(month)}-${two(date)}`
}
