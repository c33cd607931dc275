/** The claims note of the member's message: what it says each restarted claim counts again from. */
import { describe, expect, it } from 'vitest'
import { claimsNote, type ClaimPlan } from './nexusphp-claims'

const claim = (id: number, from: string | null) => ({
  id,
  torrentName: `t${id}`,
  reached: true,
  old: true,
  seedtime: '0',
  uploaded: '0',
  from,
})
const plan = (restart: ReturnType<typeof claim>[]): ClaimPlan => ({ period: '2026-01', restart, remove: [], gone: [], deduction: 0n })

describe('claimsNote', () => {
  it('names the day of the snapshot the claims begin again from: the 1st, or a later day where the server was down then', () => {
    expect(claimsNote(plan([claim(1, '2026-02-01 00:00:00'), claim(2, '2026-02-01 00:00:00')]))).toBe(
      '认领结算：\n- 2 个认领从 2 月 1 日起重新计算做种时长和上传量。',
    )
    expect(claimsNote(plan([claim(1, '2026-02-03 00:00:00')]))).toBe('认领结算：\n- 1 个认领从 2 月 3 日起重新计算做种时长和上传量。')
  })
  it('says 从现在起 for the claims no snapshot had, after the dated ones', () => {
    expect(claimsNote(plan([claim(1, null), claim(2, '2026-02-01 00:00:00')]))).toBe(
      '认领结算：\n- 1 个认领从 2 月 1 日起重新计算做种时长和上传量。\n- 1 个认领从现在起重新计算做种时长和上传量。',
    )
  })
  it('says nothing when there were no claims', () => {
    expect(claimsNote(plan([]))).toBeNull()
  })
})
