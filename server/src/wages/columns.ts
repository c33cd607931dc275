/** Values per chunk of a column (a power of two: a position splits into chunk and offset by bits). */
const CHUNK_BITS = 16
const CHUNK = 1 << CHUNK_BITS

/**
 * Growable columns of numbers for the month's rows: typed arrays cost ~8 bytes a value where an
 * object per row costs ~100 bytes, which matters at ~800,000 rows a month. A column grows by
 * chunks of 65,536 values: an array that doubled was up to half empty, and while it grew the old
 * copy lived next to the new one. At 2 M records (a fresh server, previews then computes in one
 * wage thread) a preview peaked at 295–312 MB with doubling arrays, 239–255 with chunks; a compute
 * at 451–491, 376–390.
 */
export class NumberColumn<T extends Float64Array | Int32Array = Float64Array | Int32Array> {
  length = 0
  private readonly chunks: T[] = []

  private constructor(private readonly type: new (length: number) => T) {}

  static float(): NumberColumn<Float64Array> {
    return new NumberColumn(Float64Array)
  }

  static int(): NumberColumn<Int32Array> {
    return new NumberColumn(Int32Array)
  }

  push(value: number): void {
    const offset = this.length & (CHUNK - 1)
    if (offset === 0) this.chunks.push(new this.type(CHUNK))
    this.chunks[this.chunks.length - 1]![offset] = value
    this.length++
  }

  at(index: number): number {
    return this.chunks[index >>> CHUNK_BITS]![index & (CHUNK - 1)]!
  }

  /** The column's chunks, to send to another thread (their buffers transferred: this column is not used after). */
  toChunks(): T[] {
    return [...this.chunks]
  }

  /** The column of `chunks` from another thread's toChunks, holding `length` values; it grows as any other. */
  static adopt<A extends Float64Array | Int32Array>(chunks: A[], length: number): NumberColumn<A> {
    if (chunks.some((chunk) => chunk.length !== CHUNK) || length > chunks.length * CHUNK) throw new Error('not the chunks of a column')
    const column = new NumberColumn(chunks[0]?.constructor as new (length: number) => A)
    column.chunks.push(...chunks)
    column.length = length
    return column
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
