import { describe, expect, it } from 'vitest'
import { memberFilter, memberGroupsByWeight, nextGroupSize, pacedGroups } from './member-hash'

describe('members per statement on a hash-keyed table', () => {
  const weights = new Map([
    [1, 100],
    [2, 100],
    [3, 5_000],
    [4, 100],
    [5, 0],
    [6, 2_500],
  ])
  const weight = (uid: number) => weights.get(uid)

  it('takes whole members while their rows fit the budget; a heavier one alone', () => {
    expect(memberGroupsByWeight([1, 2, 3, 4, 5, 6], weight, 2_000, 25)).toEqual([[1, 2], [3], [4, 5], [6]])
  })

  it('never more than the member cap, never none', () => {
    expect(memberGroupsByWeight([1, 2, 4, 5], weight, 10_000, 2)).toEqual([
      [1, 2],
      [4, 5],
    ])
    expect(nextGroupSize([3], 0, weight, 1, 25)).toBe(1)
    expect(nextGroupSize([1, 2], 0, weight, 2_000, 0)).toBe(1)
  })

  it('a member of unknown weight (never read) goes alone', () => {
    expect(memberGroupsByWeight([1, 7, 8, 2], weight, 2_000, 25)).toEqual([[1], [7], [8], [2]])
  })

  it('each group takes the budget of its turn (the pace moves between statements)', () => {
    const budgets = [150, 10_000]
    expect([...pacedGroups([1, 2, 4, 5, 6], weight, () => budgets.shift() ?? 0, 25)]).toEqual([[1], [2, 4, 5, 6]])
  })

  it('one member is a plain lookup', () => {
    expect(memberFilter('userid', [1001])).toBe('userid = 1001')
    expect(memberFilter('userid', [1001, 1002])).toBe('userid IN (1001, 1002)')
  })
})
