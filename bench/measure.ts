/** Timing helpers: warm-up, N timed runs, percentiles. */
export interface Timing {
  n: number
  p50: number
  p95: number
  max: number
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)
  return sorted[Math.max(0, index)]
}

export function summarise(samples: readonly number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b)
  return { n: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted[sorted.length - 1] }
}

/** Runs `run(i)` `warmup` times untimed, then `n` times timed (ms, one after the other). */
export async function time(
  n: number,
  warmup: number,
  run: (i: number) => Promise<void>,
  /** Runs before each call, outside the timing. */
  before?: () => Promise<void>,
): Promise<Timing> {
  for (let i = 0; i < warmup; i++) {
    await before?.()
    await run(i)
  }
  const samples: number[] = []
  for (let i = 0; i < n; i++) {
    await before?.()
    const started = performance.now()
    await run(warmup + i)
    samples.push(performance.now() - started)
  }
  return summarise(samples)
}

export const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2))
