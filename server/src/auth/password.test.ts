import { describe, expect, it } from 'vitest'
import { defaultScryptParams, dummyVerify, hashPassword, needsRehash, randomPassword, verifyPassword } from './password'

const cheap = { N: 2 ** 10, r: 8, p: 1 }

describe('password hashing', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const hash = await hashPassword('正确的密码 correct horse', cheap)
    expect(await verifyPassword('正确的密码 correct horse', hash)).toBe(true)
    expect(await verifyPassword('正确的密码 correct hors', hash)).toBe(false)
    expect(await verifyPassword('', hash)).toBe(false)
  })

  it('stores a self-describing salted hash, never the password', async () => {
    const a = await hashPassword('same-password', cheap)
    const b = await hashPassword('same-password', cheap)
    expect(a).not.toContain('same-password')
    expect(a).not.toBe(b)
    expect(a).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/)
  })

  it('uses N = 2^15 by default and asks for a rehash of cheaper hashes', async () => {
    expect(defaultScryptParams).toEqual({ N: 32768, r: 8, p: 1 })
    const hash = await hashPassword('pw', cheap)
    expect(needsRehash(hash, cheap)).toBe(false)
    expect(needsRehash(hash)).toBe(true)
    const strong = await hashPassword('pw')
    expect(await verifyPassword('pw', strong)).toBe(true)
    expect(needsRehash(strong)).toBe(false)
  })

  it('never matches a malformed or hostile stored hash', async () => {
    for (const stored of [
      '',
      'plain',
      'scrypt$1024$8$1$c2FsdA==',
      'scrypt$1000$8$1$c2FsdHNhbHQ=$aGFzaGhhc2hoYXNoaGFzaA==',
      'scrypt$1073741824$8$1$c2FsdHNhbHQ=$aGFzaGhhc2hoYXNoaGFzaA==',
    ]) {
      expect(await verifyPassword('pw', stored)).toBe(false)
    }
  })

  it('has a dummy verification for unknown users', async () => {
    await expect(dummyVerify('whatever', cheap)).resolves.toBeUndefined()
  })

  it('generates random passwords of the asked length without look-alikes', () => {
    const pw = randomPassword(16)
    expect(pw).toHaveLength(16)
    expect(pw).toMatch(/^[A-HJ-NP-Za-km-z2-9]+$/)
    expect(randomPassword(16)).not.toBe(pw)
  })
})
