/**
 * A MariaDB server of its own for a test, started with the server options a real site's database may
 * run with (its global sql_mode, say), which a shared test server cannot take without disturbing every
 * other test on it. A fresh data directory in the temp dir, loopback only; ~1–2 s to start.
 *
 * `siteServerBinaries()` is null where the MariaDB server is not installed (a user's machine): the
 * tests that need one are skipped there, as the NexusPHP suites are without NEXUSPHP_TEST_DATABASE_URL.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'
import mysql from 'mysql2/promise'

export interface SiteServer {
  /** mysql://root@127.0.0.1:<port>/mysql — NexusFixture and NexusSite create their databases there. */
  url: string
  stop(): Promise<void>
}

const onPath = (name: string, dirs: string[]) => dirs.map((dir) => join(dir, name)).find((file) => existsSync(file)) ?? null

/** The server and its installer, or null when this machine has no MariaDB server. */
export function siteServerBinaries(): { server: string; install: string } | null {
  const dirs = ['/usr/sbin', '/usr/bin', '/usr/local/sbin', '/usr/local/bin']
  const server = onPath('mariadbd', dirs)
  const install = onPath('mariadb-install-db', dirs) ?? onPath('mysql_install_db', dirs)
  return server && install ? { server, install } : null
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

async function answering(url: string, deadline: number, child: ChildProcess, log: string): Promise<void> {
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`mariadbd exited (${child.exitCode}); see ${log}`)
    const conn = await mysql.createConnection(url).catch(() => null)
    if (conn) return void (await conn.end())
    if (Date.now() > deadline) throw new Error(`mariadbd did not answer in time; see ${log}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Starts a MariaDB server with `options` added to its command line (e.g. `--sql-mode=…`). */
export async function startSiteServer(options: string[]): Promise<SiteServer> {
  const binaries = siteServerBinaries()
  if (!binaries) throw new Error('no MariaDB server on this machine')
  const dir = await mkdtemp(join(tmpdir(), 'site-server-'))
  const data = join(dir, 'data')
  // --user: the server refuses to run as root without it, and ignores it for anyone else.
  const user = `--user=${userInfo().username}`
  const install = spawnSync(
    binaries.install,
    ['--no-defaults', `--datadir=${data}`, '--auth-root-authentication-method=normal', '--skip-test-db', user],
    { encoding: 'utf8' },
  )
  if (install.status !== 0) {
    await rm(dir, { recursive: true, force: true })
    throw new Error(`${binaries.install} failed: ${install.stderr || install.stdout}`)
  }
  const port = await freePort()
  const log = join(dir, 'error.log')
  const child = spawn(
    binaries.server,
    [
      '--no-defaults',
      `--datadir=${data}`,
      `--socket=${join(dir, 'sock')}`,
      `--pid-file=${join(dir, 'pid')}`,
      `--log-error=${log}`,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      '--innodb-buffer-pool-size=16M',
      user,
      ...options,
    ],
    { stdio: 'ignore' },
  )
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = `mysql://root@127.0.0.1:${port}/mysql`
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    await exited
    await rm(dir, { recursive: true, force: true })
  }
  try {
    await answering(url, Date.now() + 60_000, child, log)
  } catch (error) {
    await stop()
    throw error
  }
  return { url, stop }
}
