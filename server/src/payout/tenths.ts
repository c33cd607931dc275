/**
 * Bonus amounts in tenths of a point, as bigint: NexusPHP stores `users.seedbonus` as decimal(…,1),
 * so the console credits the wage rounded to one decimal and does its sums exactly.
 */

/**
 * The wage as the site will store it: rounded half up to one decimal (MariaDB's decimal rounding). From the amount's
 * two decimals as written (wages are rounded to cents): exact for any amount a double holds to the cent — scaling the
 * double (toPrecision(12) of amount × 10) cut the tenths of amounts from 100,000,000,000 points on.
 */
export function creditTenths(amount: number): bigint {
  return parseTenths(amount.toFixed(2))
}

/** "123.4", "-5", "7.25" (rounded) → tenths. */
export function parseTenths(text: string | number): bigint {
  const value = typeof text === 'number' ? text.toFixed(1) : text.trim()
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value)
  if (!match) throw new Error(`not a decimal: ${value}`)
  const [, sign, whole, fraction = ''] = match
  let tenths = BigInt(whole!) * 10n + BigInt((fraction + '0')[0]!)
  if (Number((fraction + '00')[1]) >= 5) tenths += 1n
  return sign ? -tenths : tenths
}

export function formatTenths(tenths: bigint): string {
  const sign = tenths < 0n ? '-' : ''
  const abs = tenths < 0n ? -tenths : tenths
  return `${sign}${abs / 10n}.${abs % 10n}`
}

/** Whole points (a bonus_logs of int columns): round half away from zero. */
export function wholePoints(tenths: bigint): bigint {
  const abs = tenths < 0n ? -tenths : tenths
  const whole = (abs + 5n) / 10n
  return tenths < 0n ? -whole : whole
}
