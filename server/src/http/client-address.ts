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
  const network = ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/64`)
  return `${network.toString()}/64`
}
