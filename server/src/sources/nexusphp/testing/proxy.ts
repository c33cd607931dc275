/**
 * A TCP proxy in front of the test MariaDB that can fail on cue: cut every connection when the
 * client sends a statement containing a pattern for the n-th time (the connection drops mid-sync),
 * or swallow everything (a source that hangs). It can also keep the text of every statement the
 * client sent (`record`). Tests only.
 */
import { createServer, connect, type Server, type Socket } from 'node:net'

export interface ProxyOptions {
  /** Cut all connections (and refuse new ones until `heal()`) when `pattern` is sent the `nth` time. */
  cutOn?: { pattern: string; nth: number }
  /** Accept connections and never answer. */
  blackHole?: boolean
  /** Keep the text of every statement clients send (`statements`). */
  record?: boolean
}

/** COM_QUERY, the command byte of a text statement (MySQL client/server protocol). */
const COM_QUERY = 0x03

export class FaultProxy {
  private readonly sockets = new Set<Socket>()
  private seen = 0
  private broken = false
  /** How many times the cut happened. */
  cuts = 0
  /** The statements clients sent, in order (with `record`). */
  readonly statements: string[] = []

  private constructor(
    private readonly server: Server,
    readonly port: number,
    private readonly options: ProxyOptions,
  ) {}

  static async start(target: string, options: ProxyOptions = {}): Promise<FaultProxy> {
    const url = new URL(target)
    const upstream = { host: url.hostname, port: url.port ? Number(url.port) : 3306 }
    let proxy!: FaultProxy
    const server = createServer((client) => proxy.accept(client, upstream))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const address = server.address()
    proxy = new FaultProxy(server, typeof address === 'object' && address ? address.port : 0, options)
    return proxy
  }

  /** `url` with host and port replaced by the proxy's. */
  url(url: string): string {
    const u = new URL(url)
    u.hostname = '127.0.0.1'
    u.port = String(this.port)
    return u.toString()
  }

  private accept(client: Socket, upstream: { host: string; port: number }): void {
    this.sockets.add(client)
    client.on('close', () => this.sockets.delete(client))
    client.on('error', () => {})
    if (this.broken) return void client.destroy()
    if (this.options.blackHole) return
    const server = connect(upstream)
    this.sockets.add(server)
    server.on('close', () => {
      this.sockets.delete(server)
      client.destroy()
    })
    server.on('error', () => client.destroy())
    client.on('close', () => server.destroy())
    server.on('data', (chunk) => client.write(chunk))
    const record = this.options.record ? this.statementReader() : null
    client.on('data', (chunk) => {
      record?.(chunk)
      const cutOn = this.options.cutOn
      if (cutOn && chunk.includes(cutOn.pattern) && ++this.seen === cutOn.nth) return this.cut()
      server.write(chunk)
    })
  }

  /**
   * Reads one client's packets (3-byte length, sequence number, payload) and keeps the text of each
   * statement: a command opens a new sequence (number 0) and a statement's command byte is COM_QUERY.
   */
  private statementReader(): (chunk: Buffer) => void {
    let pending = Buffer.alloc(0)
    return (chunk) => {
      pending = Buffer.concat([pending, chunk])
      while (pending.length >= 4) {
        const length = pending.readUIntLE(0, 3)
        if (pending.length < 4 + length) return
        if (pending[3] === 0 && pending[4] === COM_QUERY) this.statements.push(pending.subarray(5, 4 + length).toString('utf8'))
        pending = pending.subarray(4 + length)
      }
    }
  }

  /** Drops every connection and refuses new ones. */
  cut(): void {
    this.broken = true
    this.cuts++
    for (const socket of this.sockets) socket.destroy()
  }

  /** Lets connections through again (and disarms `cutOn`). */
  heal(): void {
    this.broken = false
    this.seen = Number.NEGATIVE_INFINITY
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }
}
