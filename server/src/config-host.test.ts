/**
 * Found by an outside tester (fixed since; the test keeps it so): HOST is the one variable of README「服务端配置」that is never checked.
 *
 * README: "`HOST` | `127.0.0.1` | 监听地址（局域网访问用 `0.0.0.0`）"; README: "首次启动服务端时数据库为空，会创建管理员
 * `admin`，其随机密码**只在控制台打印一次**". config.ts (its header): "Every value is checked here, so a typo stops the
 * server at start with a message naming the variable instead of failing later".
 *
 * A slip such as HOST=0.0.0.0:8080 (address and port in one, as in nginx's `listen`) passed loadConfig (config.ts:128,
 * `read(env, 'HOST') ?? '127.0.0.1'`); the server then migrates the database, creates admin, prints its one-time
 * password, generates the demo community, and only app.listen fails with Node's English
 * "getaddrinfo ENOTFOUND 0.0.0.0:8080" stack, naming no variable. The next start (HOST fixed) never shows the
 * password again.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config'

const serverDir = resolve(import.meta.dirname, '..')
const dirs: string[] = []
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

describe('HOST', () => {
  it('a HOST that is no address is refused by loadConfig, naming HOST', () => {
    // An address with its port, or a URL: neither an IP address nor a host name (IPv6 `::` stays valid).
    for (const host of ['0.0.0.0:8080', 'http://0.0.0.0']) {
      expect(() => loadConfig({ HOST: host }), host).toThrow(ConfigError)
      expect(() => loadConfig({ HOST: host }), host).toThrow(/HOST/)
    }
  })

  it(
    'npm run server with HOST=0.0.0.0:8080 stops at start naming HOST, before creating admin and spending its one-time password',
    { timeout: 120_000 },
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'ops-host-'))
      dirs.push(dataDir)
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        HOST: '0.0.0.0:8080',
        PORT: '0',
        DATA_DIR: dataDir,
        DEMO_SIZE: 'small',
        NODE_ENV: 'test',
      }
      delete env.DATABASE_URL
      delete env.ADMIN_PASSWORD
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/index.ts'], { cwd: serverDir, env, stdio: ['ignore', 'pipe', 'pipe'] })
      let output = ''
      child.stdout!.on('data', (c: Buffer) => (output += c.toString()))
      child.stderr!.on('data', (c: Buffer) => (output += c.toString()))
      const code = await new Promise<number | null>((ok) => child.once('exit', ok))
      expect(code).toBe(1)
      expect(output).toContain('HOST')
      // The random password is shown once: a start that cannot listen must not be the one that shows it.
      expect(output).not.toContain('初始管理员')
      expect(existsSync(join(dataDir, 'seeding.db'))).toBe(false)
    },
  )
})
