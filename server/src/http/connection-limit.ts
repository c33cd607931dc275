/**
 * At most `max` open connections from one client address. Without it one machine could hold every
 * file descriptor of the server (idle keep-alive connections, each sending a request a minute) — a
 * service often gets 1,024 — and then nobody else connects and SQLite cannot open its temporary files.
 * Connections from a trusted proxy (TRUST_PROXY) are not limited: every client behind it shares its address.
 */
import { compile } from '@fastify/proxy-addr'
import type { FastifyInstance } from 'fastify'
import type { Socket } from 'node:net'
import { clientGroup } from './client-address'
import { failure } from './envelope'

export const MAX_CONNECTIONS_PER_IP = 256
export const connectionLimitMessage = '来自你的地址的连接过多，请关闭一些后再试'
/** Refused connections of one client kept open for the 429 answer at once; any more are closed unanswered. */
const ANSWERED_REFUSALS = 8

/**
 * Counts each client's open connections (an IPv6 client with its /64, as the login limits do). One
 * over the limit is answered 429 (in the envelope, on its first request, which does not run) and
 * closed; one that sends nothing is closed after a second; beyond a few such at once, closed unanswered.
 * Registered before every other onRequest hook.
 */
export function limitConnectionsPerIp(
  app: FastifyInstance,
  { max, holdMs, trustProxy }: { max: number; holdMs: number; trustProxy: readonly string[] },
): void {
  // The same reading of TRUST_PROXY as Fastify's for X-Forwarded-For (its proxy-addr).
  const trusted = trustProxy.length > 0 ? compile([...trustProxy]) : () => false
  const open = new Map<string, number>()
  /** Refused connections still open for their answer, per client: they hold descriptors too. */
  const answering = new Map<string, number>()
  const refused = new WeakSet<Socket>()
  const release = (counts: Map<string, number>, client: string) => {
    const left = (counts.get(client) ?? 1) - 1
    if (left > 0) counts.set(client, left)
    else counts.delete(client)
  }

  app.server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress
    if (!address || trusted(address, 0)) return
    const client = clientGroup(address)
    const count = (open.get(client) ?? 0) + 1
    if (count > max) {
      // A few get the 429 (a browser or client learns why); a flood of them is closed at once, or the
      // refused connections themselves would hold the descriptors the limit protects.
      const waiting = (answering.get(client) ?? 0) + 1
      if (waiting > ANSWERED_REFUSALS) return void socket.destroy()
      answering.set(client, waiting)
      refused.add(socket)
      socket.once('close', () => release(answering, client))
      setTimeout(() => socket.destroy(), holdMs).unref()
      return
    }
    open.set(client, count)
    socket.once('close', () => release(open, client))
  })

  app.addHook('onRequest', async (request, reply) => {
    if (!refused.has(request.raw.socket)) return
    return reply.code(429).header('cache-control', 'no-store').header('connection', 'close').send(failure(429, connectionLimitMessage))
  })
}
