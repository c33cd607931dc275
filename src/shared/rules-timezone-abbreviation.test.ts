/**
 * Found by an outside tester (fixed since; the test keeps it so): the rules' 时区 was checked only by "Intl accepts
 * it", and Intl accepts legacy abbreviations, resolving them far from what a Chinese admin means: `CST` (中国标准时间,
 * UTC+8) is America/Chicago (UTC−6). Every wage month was then cut 14 hours off. Only IANA names are taken now.
 */
import { describe, expect, it } from 'vitest'
import { ruleBodySchema } from './entities'
import { parseWith } from './validation'

const timezone = ruleBodySchema.shape.timezone

describe('the rules time zone', () => {
  it('keeps accepting IANA zone names', () => {
    expect(timezone.safeParse('Asia/Shanghai').success).toBe(true)
    expect(timezone.safeParse('UTC').success).toBe(true)
    expect(timezone.safeParse('America/Argentina/Buenos_Aires').success).toBe(true)
    expect(timezone.safeParse('Etc/GMT+8').success).toBe(true)
  })

  it('does not silently take 「CST」 (China Standard Time to a Chinese admin) as US Central time', () => {
    // What the server would cut months with: America/Chicago, UTC−6 in January.
    expect(new Intl.DateTimeFormat('en', { timeZone: 'CST' }).resolvedOptions().timeZone).toBe('America/Chicago')

    const result = parseWith(timezone, 'CST')
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.msg).toMatch(/[\u4e00-\u9fff]/)
  })
})
