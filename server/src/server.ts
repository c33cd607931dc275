/**
 * Starts a listening server in this process: what `npm run server` runs, and what e2e and
 * main-process tests use to get a real server on a free port.
 *
 *   const server = await startServer({ port: 0, dataDir, adminPassword: 'secret' })
 *   server.apiBase // http://127.0.0.1:54321/api/v1
 *   await server.close()
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { API_PREFIX } from '@shared/endpoints'
import { buildApp, type BuildAppOptions } from './app'
import { loadConfig, type Config } from './config'

export interface StartServerOptions extends Omit<BuildAppOptions, 'config'> {
  /** A complete configuration (the CLI). The fields below are ignored when it is given. */
  config?: Config
  /** Default 0: a free port chosen by the OS. */
  port?: number
  host?: string
  /** Default: a new temporary folder, removed by `close()`. */
  dataDir?: string
  adminPassword?: string
  /** `postgres://…`; unset → SQLite in dataDir. */
  databaseUrl?: string
  /**
   * Any other environment variables (SOURCE, INGEST_KEYS, …), validated as at a real start.
   * DEMO_SIZE defaults to `small` here (tests and e2e want a quick start); `npm run server` passes
   * a complete config and gets the full-size demo.
   */
  env?: Record<string, string | undefined>
}

export interface RunningServer {
  /** Origin, e.g. `http://127.0.0.1:54321`. */
  url: string
  /** API base, e.g. `http://127.0.0.1:54321/api/v1` (what the desktop app calls its server address). */
  apiBase: string
  port: number
  app: FastifyInstance
  config: Config
  /** Stops listening, lets running requests finish, closes the database. Safe to call twice. */
  close(): Promise<void>
}

export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const { config: given, port, host, dataDir, adminPassword, databaseUrl, env, ...appOptions } = options
  const tempDir = !given && !dataDir ? mkdtempSync(join(tmpdir(), 'seeding-server-')) : undefined
  const removeTempDir = () => tempDir && rmSync(tempDir, { recursive: true, force: true })

  let app: FastifyInstance | undefined
  let config: Config
  try {
    config =
      given ??
      loadConfig({
        DEMO_SIZE: 'small',
        ...env,
        PORT: String(port ?? 0),
        HOST: host ?? '127.0.0.1',
        DATA_DIR: dataDir ?? tempDir,
        DATABASE_URL: databaseUrl,
        ADMIN_PASSWORD: adminPassword,
      })
    app = await buildApp({ ...appOptions, config })
    await app.listen({ port: config.port, host: config.host })
  } catch (error) {
    await app?.close()
    removeTempDir()
    throw error
  }
  const address = app.server.address() as AddressInfo
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address
  const url = `http://${shownHost}:${address.port}`

  let closing: Promise<void> | undefined
  return {
    url,
    apiBase: url + API_PREFIX,
    port: address.port,
    app,
    config,
    close: () => (closing ??= app.close().finally(removeTempDir)),
  }
}
