/**
 * Found by an outside tester (fixed since; the test keeps it so): README「多个服务端进程」— "在同一个 PostgreSQL 上运行多个无状态的 API 进程 … 每个进程用相同的
 * `DATABASE_URL`" and「部署」"数据库迁移在包里，启动时自动执行"; SOURCE defaults to `demo` (README「服务端配置」:
 * "`SOURCE` | `demo`"), whose first start generates the community ("演示数据源首次启动生成的社区").
 *
 * A process manager starts the processes together on a new, empty database. Migrations are locked (Kysely's advisory
 * lock) and the first admin is one insert that yields to the other, but the demo's first start (app.ts bootstrapDemo
 * → sources/demo/index.ts) was not (it runs under the sync lease now): each process read "no torrents yet / no bootstrap mark", and a process that
 * read the other's mark took it for a first start cut short and deleted what the other was writing
 * (clearCutFirstStart). Both processes must come up, and the site must hold one demo community.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { openStore, startChild, type ChildServer, type Store } from '../../faults/child-server'

const postgres = process.env.DATABASE_URL?.startsWith('postgres') ?? false

describe.skipIf(!postgres)('two server processes started at the same moment on a new PostgreSQL database (SOURCE=demo)', () => {
  const stores: Store[] = []
  const children: ChildServer[] = []
  const dirs: string[] = []
  afterAll(async () => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true })
    for (const c of children) await c.kill()
    for (const s of stores) await s.cleanup()
  })

  it('both start, and the database holds exactly one demo community', { timeout: 240_000 }, async () => {
    const store = await openStore('postgres')
    stores.push(store)
    // README: "每个进程用自己的 `DATA_DIR`" (logs); the same DATABASE_URL.
    const ownDir = () => {
      const dir = mkdtempSync(join(tmpdir(), 'ops-two-'))
      dirs.push(dir)
      return dir
    }
    const a = await startChild(store, { dontWaitForHealth: true, env: { DATA_DIR: ownDir() } })
    const b = await startChild(store, { dontWaitForHealth: true, env: { DATA_DIR: ownDir() } })
    children.push(a, b)
    const up = async (c: ChildServer) => {
      try {
        await c.waitForOutput(/listening on/, 180_000)
        return 'up'
      } catch {
        return `failed: ${c
          .output()
          .split('\n')
          .filter((l) => /失败|error|Error/.test(l))
          .slice(0, 3)
          .join(' | ')
          .slice(0, 600)}`
      }
    }
    const states = await Promise.all([up(a), up(b)])
    expect(states).toEqual(['up', 'up'])

    const { db } = await store.open()
    const count = async (table: string) =>
      Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0]!.n)
    // DEMO_SIZE=small: 400 site users, 2,000 torrents, 24 members + the admin + 2 more admins (the log line says so).
    const users = await count('users')
    const siteUsers = await count('site_users')
    const torrents = await count('site_torrents')
    const admins = Number((await sql<{ n: string }>`select count(*) as n from users where username = 'admin'`.execute(db)).rows[0]!.n)
    expect({ admins, siteUsers, torrents, users }).toEqual({ admins: 1, siteUsers: 400, torrents: 2000, users: 27 })

    // Both answer a login and the dashboard.
    for (const c of [a, b]) {
      const token = await c.login()
      expect(token).toBeTruthy()
    }
  })
})
