/**
 * Found by an outside tester (fixed since; the test keeps it so): the wage was rounded to the site's tenths through
 * `toPrecision(12)`, which keeps only 12 significant digits of the amount in tenths: from 100,000,000,000 points on,
 * 123,456,789,012.3 points was credited (seedbonus, the bonus log, the message) as 123,456,789,012.0. NexusPHP's
 * seedbonus is decimal(20,1) since its 2023-06 migration, and MariaDB rounds an added amount half up to one decimal.
 * The credit now comes from the amount's two decimals as written.
 */
import { describe, expect, it } from 'vitest'
import { creditTenths, formatTenths } from './tenths'

describe('the credit of a large wage', () => {
  it('keeps every tenth of an amount a double holds exactly enough', () => {
    expect(formatTenths(creditTenths(123_456_789_012.3))).toBe('123456789012.3')
    expect(formatTenths(creditTenths(100_000_000_000.3))).toBe('100000000000.3')
    // still rounds half up at the tenth, whatever the double's last bits
    expect(formatTenths(creditTenths(123_456_789_012.35))).toBe('123456789012.4')
    for (const [amount, credit] of [
      [0, '0.0'],
      [0.04, '0.0'],
      [0.05, '0.1'],
      [0.15, '0.2'],
      [2.25, '2.3'],
      [1234.56, '1234.6'],
      [99.94, '99.9'],
      [99.95, '100.0'],
    ] as const)
      expect(formatTenths(creditTenths(amount)), String(amount)).toBe(credit)
  })
})
