import { describe, expect, it } from 'vitest'
import {
  passwordLength,
  rankFactorBounds,
  remarkMaxLength,
  ruleBounds,
  searchLimits,
  siteUidMax,
  siteUserKeywordMax,
  usernameLength,
} from './formLimits'

describe('form limits from the contract', () => {
  it('reads the length limits of the member forms', () => {
    expect(usernameLength).toEqual({ min: 2, max: 32 })
    expect(passwordLength).toEqual({ min: 8, max: 128 })
    expect(remarkMaxLength).toBe(500)
    expect(siteUidMax).toBe(2_147_483_647)
    expect(siteUserKeywordMax).toBe(64)
  })

  it('reads the rules form bounds; an excluded bound moves in by the box step', () => {
    expect(ruleBounds('targetKeepers')).toEqual({ min: 1, max: 1000 })
    expect(ruleBounds('activeWindowMinutes')).toEqual({ min: 1, max: 7 * 24 * 60 })
    expect(ruleBounds('n0')).toEqual({ min: 1.01, max: 1_000_000 }) // gt(1)
    expect(ruleBounds('t0Weeks')).toEqual({ min: 0.01, max: 10_000 }) // positive()
    expect(ruleBounds('timezone')).toEqual({})
    expect(rankFactorBounds).toEqual({ min: 0, max: 100 })
  })

  it('reads the limits of the list searches', () => {
    expect(searchLimits).toEqual({
      memberName: 64,
      memberSiteUid: { min: 1, max: 2_147_483_647 }, // positive()
      recordTorrentName: 200,
      torrentName: 200,
      torrentTeam: 100,
    })
  })
})
