import { describe, expect, it } from 'vitest'
import { clientGroup } from './client-address'

describe('clientGroup: whom a per-client limit counts', () => {
  it('an IPv4 address as itself, also as a dual-stack listener writes it', () => {
    expect(clientGroup('203.0.113.7')).toBe('203.0.113.7')
    expect(clientGroup('::ffff:203.0.113.7')).toBe('203.0.113.7')
    expect(clientGroup('::FFFF:cb00:7107')).toBe('203.0.113.7')
  })

  it('an IPv6 address by its /64, however it is written', () => {
    const group = clientGroup('2001:db8:1:2:aaaa:bbbb:cccc:dddd')
    expect(group).toBe('2001:db8:1:2::/64')
    expect(clientGroup('2001:0db8:0001:0002:0:0:0:1')).toBe(group)
    expect(clientGroup('2001:db8:1:2::9%eth0')).toBe(group)
    expect(clientGroup('2001:db8:1:3::1')).not.toBe(group)
    expect(clientGroup('::1')).toBe('::/64')
  })

  it('anything else as given', () => {
    expect(clientGroup('unknown')).toBe('unknown')
  })
})
