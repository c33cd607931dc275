/**
 * Whom a per-client limit counts (the login limits, the open connections): an IPv4 address — also
 * when a dual-stack listener writes it `::ffff:a.b.c.d` — or an IPv6 address's /64, one subscriber's
 * network, where every host may pick any of 2^64 addresses: counted one by one, a guesser or a
 * connection hog would start afresh with every new address.
 */
import ipaddr from 'ipaddr.js'

export function clientGroup(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip
  const address = ipaddr.process(ip)
  if (address.kind() === 'ipv4') return address.toString()
  return ipv6Prefix(address as ipaddr.IPv6, 64)
}

/**
 * The IPv6 /48 around a client's /64 (a site's usual allocation: 65,536 /64s), for the login
 * limits that count a whole network with a larger allowance; null for IPv4 (its address already is
 * the group) and for anything that is not an address.
 */
export function clientNetwork(ip: string): string | null {
  if (!ipaddr.isValid(ip)) return null
  const address = ipaddr.process(ip)
  return address.kind() === 'ipv6' ? ipv6Prefix(address as ipaddr.IPv6, 48) : null
}

function ipv6Prefix(address: ipaddr.IPv6, bits: number): string {
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/${bits}`).toString()}/${bits}`
}
