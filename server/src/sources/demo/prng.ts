/**
 * A small seeded PRNG (sfc32) and the distributions the demo needs. Same seed → same community,
 * on any machine and either database: nothing here may depend on Math.random or the clock.
 */
export class Prng {
  private a: number
  private b: number
  private c: number
  private d: number

  constructor(seed: string | number) {
    // xmur3-style string hash to four 32-bit words.
    let h = 1779033703 ^ String(seed).length
    const text = String(seed)
    for (let i = 0; i < text.length; i++) {
      h = Math.imul(h ^ text.charCodeAt(i), 3432918353)
      h = (h << 13) | (h >>> 19)
    }
    const next = () => {
      h = Math.imul(h ^ (h >>> 16), 2246822507)
      h = Math.imul(h ^ (h >>> 13), 3266489909)
      return (h ^= h >>> 16) >>> 0
    }
    this.a = next()
    this.b = next()
    this.c = next()
    this.d = next()
    for (let i = 0; i < 12; i++) this.next()
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0
    this.d = (this.d + 1) | 0
    this.a = this.b ^ (this.b >>> 9)
    this.b = (this.c + (this.c << 3)) | 0
    this.c = (this.c << 21) | (this.c >>> 11)
    this.c = (this.c + t) | 0
    return (t >>> 0) / 4294967296
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  chance(p: number): boolean {
    return this.next() < p
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = 1 - this.next()
    const v = this.next()
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v)
  }

  /** Log-normal with the given median and spread (σ of the underlying normal). */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal())
  }

  /** `bytes` random bytes as lower-case hex. */
  hex(bytes: number): string {
    let out = ''
    for (let i = 0; i < bytes; i++) out += ((this.next() * 256) | 0).toString(16).padStart(2, '0')
    return out
  }
}

/** Picks indexes with given weights in O(log n) (cumulative table + binary search). */
export class WeightedPicker {
  private readonly cumulative: Float64Array
  private readonly total: number

  constructor(weights: readonly number[]) {
    this.cumulative = new Float64Array(weights.length)
    let sum = 0
    weights.forEach((w, i) => (this.cumulative[i] = sum += w))
    this.total = sum
  }

  pick(rng: Prng): number {
    const x = rng.next() * this.total
    let lo = 0
    let hi = this.cumulative.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (this.cumulative[mid] > x) hi = mid
      else lo = mid + 1
    }
    return lo
  }
}
