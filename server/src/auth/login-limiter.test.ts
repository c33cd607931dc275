import { describe, expect, it } from 'vitest'
import { LoginLimiter } from './login-limiter'

function setup(limits = { windowMs: 15 * 60_000, perUser: 5, perIp: 30 }) {
  let now = 1_000_000
  const limiter = new LoginLimiter(limits, () => now)
  return { limiter, advance: (ms: number) => void (now += ms) }
}

describe('LoginLimiter', () => {
  it('blocks a username from an IP after 5 failures, and only that pair', () => {
    const { limiter } = setup()
    for (let i = 0; i < 5; i++) {
      expect(limiter.check('alice', '10.0.0.1').allowed).toBe(true)
      limiter.recordFailure('alice', '10.0.0.1')
    }
    expect(limiter.check('alice', '10.0.0.1')).toEqual({ allowed: false, retryAfterSec: 900 })
    expect(limiter.check('alice', '10.0.0.2').allowed).toBe(true)
    expect(limiter.check('bob', '10.0.0.1').allowed).toBe(true)
  })

  it('slides: the oldest failure leaving the window lets one attempt through', () => {
    const { limiter, advance } = setup()
    limiter.recordFailure('alice', 'ip')
    advance(60_000)
    for (let i = 0; i < 4; i++) limiter.recordFailure('alice', 'ip')
    advance(13 * 60_000)
    expect(limiter.check('alice', 'ip')).toEqual({ allowed: false, retryAfterSec: 60 })
    advance(60_000)
    expect(limiter.check('alice', 'ip').allowed).toBe(true)
  })

  it('blocks an IP that sprays many usernames', () => {
    const { limiter } = setup()
    for (let i = 0; i < 30; i++) limiter.recordFailure(`user${i}`, 'ip')
    expect(limiter.check('someone-new', 'ip').allowed).toBe(false)
    expect(limiter.check('someone-new', 'other-ip').allowed).toBe(true)
  })

  it('forgives the pair on success but keeps the IP count', () => {
    const { limiter } = setup({ windowMs: 60_000, perUser: 3, perIp: 5 })
    for (let i = 0; i < 2; i++) limiter.recordFailure('alice', 'ip')
    limiter.recordSuccess('alice', 'ip')
    for (let i = 0; i < 2; i++) limiter.recordFailure('alice', 'ip')
    expect(limiter.check('alice', 'ip').allowed).toBe(true)
    limiter.recordFailure('alice', 'ip')
    expect(limiter.check('alice', 'ip').allowed).toBe(false) // 5 failures from the IP in the window
  })
})
