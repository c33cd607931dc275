/**
 * A member's long users.bonuscomment keeps all of their history that fits the TEXT column (65,535 bytes) beside our
 * line. Found by an outside tester: past 60,000 bytes it kept only its first 15,000 characters (4 bytes each assumed),
 * so plain ASCII lines ("Y-m-d - [购买] …" is mostly ASCII) lost three quarters of the history — about 45 KB — where our
 * ~150-byte line needed only the oldest few lines gone. On a v1.6 site bonuscomment is the only record of a member's bonus changes. NexusPHP's own
 * writes (BonusRepository::consumeUserBonus: concat_ws('\n', new, bonuscomment)) lose only what overflows the column.
 * Runs when NEXUSPHP_TEST_DATABASE_URL is set.
 */
import { describe, expect, it } from 'vitest'
import { useSiteMonth } from './testing/site-month'

const serverUrl = process.env.NEXUSPHP_TEST_DATABASE_URL
const operator = { id: 1, username: 'admin' }
const UID = 1001

/** 61,000 bytes of the member's own bonus lines, newest first, each one numbered. */
const history = () => {
  const lines: string[] = []
  let bytes = 0
  for (let i = 0; bytes < 61_000; i++) {
    const line = `2025-11-${String((i % 28) + 1).padStart(2, '0')} - [Exchange upload] spent 100 bonus, line ${String(i).padStart(5, '0')}`
    lines.push(line)
    bytes += line.length + 1
  }
  return lines.join('\n')
}

describe.skipIf(!serverUrl).each(['InnoDB', 'MyISAM'] as const)("a member's long bonus history on a NexusPHP site (%s)", (engine) => {
  const { t, service, wage } = useSiteMonth(serverUrl, engine, { count: 2, bonus: () => '100.0', operator })

  it('keeps every line of theirs that still fits the column next to our line', async () => {
    const own = history()
    await t.site.conn.query('UPDATE users SET bonuscomment = ? WHERE id = ?', [own, UID])
    const [result] = await service().run({ ids: [wage(UID)] }, operator, '127.0.0.1')
    expect(result!.status).toBe('paid')
    const comment = (await t.site.bonusComment(UID))!
    expect(Buffer.byteLength(comment)).toBeLessThanOrEqual(65_535)
    // 61,000 + our line fit in 65,535 bytes: nothing of the member's history had to go.
    const ownLines = own.split('\n')
    const kept = comment.split('\n').slice(1)
    expect(kept.length).toBe(ownLines.length)
    expect(kept.at(-1)).toBe(ownLines.at(-1))
  })

  it('cuts a full history of mixed widths to the column, newest first, whatever the width of its parts', async () => {
    // Newest lines mostly three bytes a character, the oldest plain ASCII: a guess from the average width is too long.
    const lines: string[] = []
    let bytes = 0
    for (let i = 0; bytes < 65_300; i++) {
      const line = bytes < 40_000 ? `2025-12-01 - [购买邀请] 花费魔力兑换上传流量 第 ${i} 次` : `2025-01-01 - plain old line ${i}`
      lines.push(line)
      bytes += Buffer.byteLength(line) + 1
    }
    const full = lines.join('\n')
    expect(Buffer.byteLength(full)).toBeGreaterThan(65_000)
    await t.site.conn.query('UPDATE users SET bonuscomment = ? WHERE id = ?', [full, UID + 1])
    const [result] = await service().run({ ids: [wage(UID + 1)] }, operator, '127.0.0.1')
    expect(result!.status).toBe('paid')
    const comment = (await t.site.bonusComment(UID + 1))!
    expect(Buffer.byteLength(comment)).toBeLessThanOrEqual(65_535)
    expect(Buffer.byteLength(comment)).toBeGreaterThan(50_000)
    expect(comment.split('\n')[1]).toBe(full.split('\n')[0])
  })
})
