/** Epoch milliseconds (how the database stores time) ↔ ISO-8601 (how the wire carries it). */
export function toIso(ms: number): string
export function toIso(ms: number | null): string | null
export function toIso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString()
}

export type Clock = () => number

export const systemClock: Clock = () => Date.now()
