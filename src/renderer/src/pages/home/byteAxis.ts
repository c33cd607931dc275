/**
 * Byte axes with ticks people read at a glance: the step is 1, 2 or 5 × a power of ten of a binary
 * unit (200 TiB, 50 GiB, 1 PiB), so the labels are 0 / 200 / 400 / 600 / 800 TiB — echarts' own
 * steps are round in bytes, which reads 272.8 / 545.7 / 818.5 TiB.
 */
import { BYTE_UNITS } from '@renderer/utils/format'

const UNIT = 1024
const NICE = [1, 2, 5, 10, 20, 50, 100, 200, 500] as const

/** The smallest round step that covers `max` in at most `splits + 1` steps. */
export function binaryStep(max: number, splits = 4): number {
  let unit = 1
  while (unit * UNIT <= max / (splits + 1)) unit *= UNIT
  for (;;) {
    for (const step of NICE) if (Math.ceil(max / (step * unit)) <= splits + 1) return step * unit
    unit *= UNIT
  }
}

/**
 * Tick labels in the unit of the step, so one axis never mixes units: 0 B / 500 TiB / 1000 TiB /
 * 1500 TiB. Each tick in its own unit would read 1000 TiB next to "1.5 PiB" (1500 TiB is 1.46 PiB).
 */
export function byteTickLabel(interval: number): (value: number) => string {
  let power = 0
  while (power < BYTE_UNITS.length - 1 && interval >= UNIT ** (power + 1)) power += 1
  return (value) => (value === 0 ? '0 B' : `${Number((value / UNIT ** power).toFixed(1))} ${BYTE_UNITS[power]}`)
}

/** `min`, `max` and `interval` of a value axis of bytes showing `values`; nothing when all are 0. */
export function byteAxisRange(
  values: readonly number[],
  splits = 4,
): { min: number; max: number; interval: number } | Record<string, never> {
  const max = Math.max(0, ...values.filter(Number.isFinite))
  if (max === 0) return {}
  const interval = binaryStep(max, splits)
  return { min: 0, max: Math.ceil(max / interval) * interval, interval }
}
