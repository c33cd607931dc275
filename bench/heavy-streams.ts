/**
 * The request streams of bench:heavy: clients that each send one request at a time at a steady pace
 * and record how long each answer took, while a heavy job runs.
 */
import { Agent, request } from 'node:http'
import { percentile } from './measure'
import type { StreamStats } from './heavy-report'

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))

export interface Sample {
  stream: string
  /** When it was sent (performance.now()). */
  sent: number
  ms: number
  ok: boolean
}

interface StreamSpec {
  name: string
  /** Its name in the report's column heads. */
  short: string
  method: 'GET' | 'POST'
  path: string
  /** A request's body; a function gets the run's member id and the request's number. */
  body?: object | ((memberId: number, n: number) => object)
}

export const STREAMS: StreamSpec[] = [
  { name: 'GET /health', short: '/health', method: 'GET', path: '/health' },
  { name: 'page-seed first page', short: 'page-seed', method: 'POST', path: '/user/page-seed', body: { page: 1, pageSize: 20 } },
  // An admin's write (a users row and an operation-log row in one transaction), the remark changing each
  // time: it needs SQLite's one write lock, which a sync's or a compute's transactions hold in turns.
  {
    name: 'admin write (user/update)',
    short: 'admin write',
    method: 'POST',
    path: '/user/update',
    body: (memberId, n) => ({ id: memberId, remark: `bench ${n % 2}` }),
  },
]

/** One request on the streams' agent; ok = HTTP 200 and envelope code 200. */
function send(agent: Agent, apiBase: string, token: string, spec: StreamSpec, memberId: number, n: number): Promise<boolean> {
  const url = new URL(apiBase + spec.path)
  const body = typeof spec.body === 'function' ? spec.body(memberId, n) : spec.body
  const payload = body ? JSON.stringify(body) : undefined
  return new Promise((done) => {
    const req = request(
      url,
      {
        method: spec.method,
        agent,
        headers: {
          'access-token': token,
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          try {
            done(res.statusCode === 200 && (JSON.parse(Buffer.concat(chunks).toString()) as { code: number }).code === 200)
          } catch {
            done(false)
          }
        })
        res.on('error', () => done(false))
      },
    )
    req.on('error', () => done(false))
    req.end(payload)
  })
}

/**
 * Each stream runs `connections` clients, each on its own keep-alive connection, one request at a
 * time: together `rate` requests a second. A client whose answer comes late sends the next one at
 * once (the sends it missed are not made up), so a stalled server shows as long answers and fewer
 * requests, never as a queue the bench itself built.
 */
export function startStreams(
  apiBase: string,
  token: string,
  { rate, connections, memberId }: { rate: number; connections: number; memberId: number },
): { stop(): Promise<Sample[]> } {
  const samples: Sample[] = []
  const clients: Promise<void>[] = []
  const agents: Agent[] = []
  let stopped = false
  const period = (1000 * connections) / rate
  for (const [index, spec] of STREAMS.entries()) {
    for (let c = 0; c < connections; c++) {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 })
      agents.push(agent)
      // Spread over the period so the clients do not fire together.
      let due = performance.now() + (period * (index * connections + c)) / (STREAMS.length * connections)
      clients.push(
        (async () => {
          while (!stopped) {
            await sleep(Math.max(0, due - performance.now()))
            if (stopped) break
            const sent = performance.now()
            const ok = await send(agent, apiBase, token, spec, memberId, samples.length)
            samples.push({ stream: spec.name, sent, ms: performance.now() - sent, ok })
            due = Math.max(due + period, performance.now())
          }
        })(),
      )
    }
  }
  return {
    stop: async () => {
      stopped = true
      await Promise.all(clients)
      for (const agent of agents) agent.destroy()
      return samples
    },
  }
}

export function statsOf(samples: Sample[]): StreamStats {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b)
  return {
    n: sorted.length,
    errors: samples.filter((s) => !s.ok).length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? NaN,
  }
}
