/**
 * Found by an outside tester (fixed since; the test keeps it so): a site database server that stops answering (mysqld hung, its VM frozen, a network path that swallows
 * packets while the kernel still acknowledges them) makes the sync time out once or twice — then hang forever.
 *
 * mysql2's per-query `timeout` only rejects the promise; the pooled connection stays checked out until the server
 * answers the abandoned statement (pool.query releases it on the command's 'end'). The pool has two connections
 * and no acquire time-out, so after two timed-out statements every later statement (the sync's first, the
 * source clock) waits in the pool's queue with no timer at all: the sync never ends, /data-sync shows 「同步中」
 * with no error, and no later sync starts. It stays so after the network is fixed (new connections would work,
 * but the pool never opens one): only a restart of the console helps.
 */
import { createServer, connect, type Server, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { SyncRunner } from '../../jobs/sync'
import { buildTestApp, openTestDatabases } from '../../test/harness'
import { createWageEstimates } from '../../wages/estimates'
import { nexusphpSource } from './index'
import { NexusFixture } from './testing/fixture'
import { addMember } from './testing/member'

const serverUrl = process.env.NEXUSPHP_TEST_DATABASE_URL

/** A proxy whose existing connections can be frozen: bytes are accepted and never forwarded (a hung server). */
class FreezingProxy {
  private readonly sockets = new Set<Socket>()
  /** Connections accepted while this is set are frozen as well. */
  frozenNew = false
  private readonly frozen = new WeakSet<Socket>()
  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(target: string): Promise<FreezingProxy> {
    const url = new URL(target)
    let proxy!: FreezingProxy
    const server = createServer((client) => proxy.accept(client, url.hostname, Number(url.port || 3306)))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    proxy = new FreezingProxy(server, (server.address() as { port: number }).port)
    return proxy
  }

  url(url: string): string {
    const u = new URL(url)
    u.hostname = '127.0.0.1'
    u.port = String(this.port)
    return u.toString()
  }

  private accept(client: Socket, host: string, port: number): void {
    this.sockets.add(client)
    client.on('error', () => {})
    client.on('close', () => this.sockets.delete(client))
    if (this.frozenNew) return void this.frozen.add(client)
    const upstream = connect(port, host)
    this.sockets.add(upstream)
    upstream.on('error', () => client.destroy())
    upstream.on('close', () => client.destroy())
    client.on('close', () => upstream.destroy())
    upstream.on('data', (chunk) => {
      if (!this.frozen.has(client)) client.write(chunk)
    })
    client.on('data', (chunk) => {
      if (!this.frozen.has(client)) upstream.write(chunk)
    })
  }

  /** Every open connection stops answering (and new ones too, until `heal()`). */
  freeze(): void {
    this.frozenNew = true
    for (const socket of this.sockets) this.frozen.add(socket)
  }

  /** New connections work again (the network is fixed); the frozen ones stay as they are. */
  heal(): void {
    this.frozenNew = false
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }
}

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  // Each bounded: a leaked pool connection keeps pool.end() waiting.
  for (const cleanup of cleanups.splice(0).reverse())
    await Promise.race([cleanup().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 3_000))])
})

/** How `work` ended within `ms`: its error message, 'ok', or 'still running' (it hangs). */
async function settledWithin(work: Promise<unknown>, ms: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined
  const hang = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('still running'), ms)))
  const outcome = work.then(
    (result) => ((result as { ran?: boolean }).ran === false ? 'not started: the previous sync is still running' : 'ok'),
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  )
  try {
    return await Promise.race([outcome, hang])
  } finally {
    clearTimeout(timer)
  }
}

describe.skipIf(!serverUrl)('a site database server that stops answering', () => {
  it('every sync fails on time while it is hung, and the first sync after the network is fixed completes', async () => {
    const site = await NexusFixture.create(serverUrl!)
    cleanups.push(() => site.drop())
    const now = await site.now()
    await site.user({ id: 1001, username: 'alice' })
    await site.torrent({ id: 1 })
    await site.peer({ userid: 1001, torrent: 1, seeder: true, lastAction: now - 60_000 })

    const proxy = await FreezingProxy.start(serverUrl!)
    cleanups.push(() => proxy.close())
    const db = await openTestDatabases()[0]!.open()
    cleanups.push(() => db.cleanup())
    const app = await buildTestApp({ database: db.database, config: db.config })
    cleanups.push(() => app.close())
    await addMember(db.database, 'alice', 1001)
    // Short client limits so the test is quick (production: 120 s per statement, 10 s to connect).
    const source = nexusphpSource(
      { databaseUrl: proxy.url(site.url), timezone: undefined },
      { queryTimeoutMs: 1_000, connectTimeoutMs: 800 },
    )
    const runner = new SyncRunner({ database: db.database, source, wages: createWageEstimates(), clock: () => Date.now() })
    cleanups.push(() => runner.stop())
    cleanups.push(async () => source.close?.())
    // First of all: drop the frozen sockets (the leaked connections then fail and leave the pool).
    cleanups.push(() => proxy.close())

    // Two syncs that work: the pool holds its two connections.
    expect((await runner.runOnce()).ran).toBe(true)
    expect((await runner.runOnce()).ran).toBe(true)

    proxy.freeze()
    const outcomes: string[] = []
    for (let i = 0; i < 4; i++) outcomes.push(await settledWithin(runner.runOnce(), 6_000))
    // Each sync while the server is hung fails after about the statement limit, with a message for /data-sync.
    expect(
      outcomes.map((outcome) => (/^无法连接 NexusPHP 数据库|^读取 NexusPHP 数据失败/.test(outcome) ? 'failed on time' : outcome)),
    ).toEqual(['failed on time', 'failed on time', 'failed on time', 'failed on time'])

    // The network is fixed: the next sync reaches the server again and completes.
    proxy.heal()
    expect(await settledWithin(runner.runOnce(), 6_000)).toBe('ok')
  }, 60_000)
})
