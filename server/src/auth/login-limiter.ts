/**
 * Limits password guessing: failed logins are counted per (username, IP) and per IP in a sliding
 * window. The counters live in this process's memory — they reset on restart and are not shared
 * between several server processes, which is enough for one team's server behind one process.
 */
import type { Clock } from '../db/time'
import { systemClock } from '../db/time'

export interface LoginLimits {
  windowMs: number
  /** Failures allowed per (username, IP) within the window. */
  perUser: number
  /** Failures allowed per IP within the window (across usernames: stops spraying). */
  perIp: number
}

export const defaultLoginLimits: LoginLimits = { windowMs: 15 * 60_000, perUser: 5, perIp: 30 }

/** Beyond this many tracked keys, a failure first drops keys whose failures all left the window. */
const SWEEP_THRESHOLD = 10_000

export type LimitVerdict = { allowed: true } | { allowed: false; retryAfterSec: number }

export class LoginLimiter {
  private readonly failures = new Map<string, number[]>()

  constructor(
    private readonly limits: LoginLimits = defaultLoginLimits,
    private readonly now: Clock = systemClock,
  ) {}

  /** Whether an attempt may be judged at all. A refused attempt is not counted. */
  check(usernameKey: string, ip: string): LimitVerdict {
    const now = this.now()
    const waits = [
      this.wait(userKey(usernameKey, ip), this.limits.perUser, now),
      this.wait(ipKey(ip), this.limits.perIp, now),
    ].filter((ms): ms is number => ms !== null)
    if (waits.length === 0) return { allowed: true }
    return { allowed: false, retryAfterSec: Math.max(1, Math.ceil(Math.max(...waits) / 1000)) }
  }

  recordFailure(usernameKey: string, ip: string): void {
    const now = this.now()
    if (this.failures.size > SWEEP_THRESHOLD) this.sweep(now)
    for (const key of [userKey(usernameKey, ip), ipKey(ip)]) {
      const list = this.recent(key, now)
      list.push(now)
      this.failures.set(key, list)
    }
  }

  /** A successful login forgives that username's failures from that IP (not the IP's total). */
  recordSuccess(usernameKey: string, ip: string): void {
    this.failures.delete(userKey(usernameKey, ip))
  }

  /** Milliseconds until the key is allowed again, or null when it is allowed now. */
  private wait(key: string, limit: number, now: number): number | null {
    const list = this.recent(key, now)
    if (list.length < limit) return null
    // The attempt becomes allowed when enough of the oldest failures have left the window.
    return list[list.length - limit] + this.limits.windowMs - now
  }

  private recent(key: string, now: number): number[] {
    const list = this.failures.get(key)
    if (!list) return []
    const from = now - this.limits.windowMs
    const kept = list.filter((at) => at > from)
    if (kept.length === 0) this.failures.delete(key)
    else if (kept.length !== list.length) this.failures.set(key, kept)
    return kept
  }

  private sweep(now: number): void {
    for (const key of [...this.failures.keys()]) this.recent(key, now)
  }
}

const userKey = (usernameKey: string, ip: string) => `u\u0000${ip}\u0000${usernameKey}`
const ipKey = (ip: string) => `i\u0000${ip}`
