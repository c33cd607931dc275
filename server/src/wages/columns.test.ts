import { describe, expect, it } from 'vitest'
import { groupBy, NumberColumn } from './columns'

describe('number columns', () => {
  it('keep every value across chunk boundaries, floats exact and integers as 32-bit', () => {
    const floats = NumberColumn.float()
    const ints = NumberColumn.int()
    const n = 200_003 // three full chunks of 65,536 and part of a fourth
    for (let i = 0; i < n; i++) {
      floats.push(i + 0.25)
      ints.push(i * 7)
    }
    expect(floats.length).toBe(n)
    expect(ints.length).toBe(n)
    for (const i of [0, 1, 65_535, 65_536, 65_537, 131_071, 131_072, 196_607, 196_608, n - 1]) {
      expect(floats.at(i)).toBe(i + 0.25)
      expect(ints.at(i)).toBe(i * 7)
    }
  })

  it('go to another thread as their chunks and grow there as before', () => {
    const ints = NumberColumn.int()
    const n = 131_075 // two full chunks and part of a third
    for (let i = 0; i < n; i++) ints.push(i * 3)
    const chunks = ints.toChunks()
    expect(chunks).toHaveLength(3)
    const back = NumberColumn.adopt(structuredClone(chunks), n)
    back.push(-1)
    expect(back.length).toBe(n + 1)
    for (const i of [0, 65_535, 65_536, 131_072, n - 1]) expect(back.at(i)).toBe(i * 3)
    expect(back.at(n)).toBe(-1)
    expect(() => NumberColumn.adopt(chunks, 4 * 65_536)).toThrow()
  })

  it('group positions by key: keys ascending, each group in its rows’ order', () => {
    const keys = NumberColumn.int()
    const values = [5, 3, 5, 9, 3, 5]
    for (let i = 0; i < 70_000; i++) keys.push(values[i % values.length]!)
    const { groups, starts, order } = groupBy(keys)
    expect(groups).toEqual([3, 5, 9])
    for (let g = 0; g < groups.length; g++) {
      const rows = [...order.subarray(starts[g], starts[g + 1])]
      expect(rows.every((i) => keys.at(i) === groups[g])).toBe(true)
      expect(rows).toEqual([...rows].sort((a, b) => a - b))
    }
    expect(starts[groups.length]).toBe(70_000)
  })
})
