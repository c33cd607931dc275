/**
 * Growable columns of numbers for the month's rows: typed arrays cost ~8 bytes a value where an
 * object per row costs ~100 bytes, which matters at ~800,000 rows a month.
 */
export class NumberColumn<T extends Float64Array | Int32Array = Float64Array | Int32Array> {
  length = 0
  constructor(private data: T) {}

  static float(capacity = 1 << 16): NumberColumn<Float64Array> {
    return new NumberColumn(new Float64Array(capacity))
  }

  static int(capacity = 1 << 16): NumberColumn<Int32Array> {
    return new NumberColumn(new Int32Array(capacity))
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = new (this.data.constructor as new (n: number) => T)(this.data.length * 2)
      bigger.set(this.data)
      this.data = bigger
    }
    this.data[this.length++] = value
  }

  at(index: number): number {
    return this.data[index]!
  }
}

/**
 * Counting sort of row positions by an integer key: `groups` are the distinct keys ascending, and
 * `order.subarray(starts[g], starts[g + 1])` the rows of group g, in their original order.
 */
export function groupBy(keys: NumberColumn<Int32Array>): { groups: number[]; starts: Int32Array; order: Int32Array } {
  const seen = new Set<number>()
  for (let i = 0; i < keys.length; i++) seen.add(keys.at(i))
  const groups = [...seen].sort((a, b) => a - b)
  const slot = new Map(groups.map((key, index) => [key, index]))
  const starts = new Int32Array(groups.length + 1)
  for (let i = 0; i < keys.length; i++) starts[slot.get(keys.at(i))! + 1]++
  for (let g = 0; g < groups.length; g++) starts[g + 1] += starts[g]
  const order = new Int32Array(keys.length)
  const fill = starts.slice(0, groups.length)
  for (let i = 0; i < keys.length; i++) order[fill[slot.get(keys.at(i))!]++] = i
  return { groups, starts, order }
}
