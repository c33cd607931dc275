import { describe, expect, it } from 'vitest'
import { clientGroup, clientNetwork } from './client-address'

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

describe('clientNetwork: the wider IPv6 network a login limit also counts', () => {
  it('an IPv6 address by its /48, however it is written', () => {
    const network = clientNetwork('2001:db8:1:2:aaaa:bbbb:cccc:dddd')
    expect(network).toBe('2001:db8:1::/48')
    expect(clientNetwork('2001:0db8:0001:ffff::1%eth0')).toBe(network)
    expect(clientNetwork('2001:db8:2::1')).not.toBe(network)
  })

  it('none for IPv4 (also written as IPv6) and for anything else', () => {
    expect(clientNetwork('203.0.113.7')).toBeNull()
    expect(clientNetwork('::ffff:203.0.113.7')).toBeNull()
    expect(clientNetwork('unknown')).toBeNull()
  })
})
