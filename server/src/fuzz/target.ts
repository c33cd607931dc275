/**
 * The server the fuzzer talks to: the real app over a fresh database (SQLite in a temp folder, or a
 * new PostgreSQL database when a URL is given) holding a small demo community and a computed wage
 * month, so that calls reach their data and not only their validation.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import { API_PREFIX, TOKEN_HEADER } from '@shared/endpoints'
import { buildApp } from '../app'
import { loadConfig } from '../config'
import { openDatabase, type AppDatabase } from '../db/database'
import { bootstrapDemo } from '../sources/demo'
import { periodOf, shiftPeriod } from '../wages/period'

export const FUZZ_ADMIN_PASSWORD = 'Fuzz-admin-pass-1'

export interface FuzzTarget {
  app: FastifyInstance
  database: AppDatabase
  /** The admin's token; logs in again after a call that ended the session. */
  adminToken(): Promise<string>
  forgetToken(): void
  close(): Promise<void>
}

async function withClient(url: string, work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await work(client)
  } finally {
    await client.end()
  }
}

export async function openFuzzTarget(postgresUrl?: string): Promise<FuzzTarget> {
  const dataDir = mkdtempSync(join(tmpdir(), 'seeding-fuzz-'))
  let databaseUrl: string | undefined
  let dbName: string | undefined
  if (postgresUrl) {
    dbName = `z_${randomBytes(6).toString('hex')}`
    await withClient(postgresUrl, (c) => c.query(`create database ${dbName}`))
    const url = new URL(postgresUrl)
    url.pathname = `/${dbName}`
    databaseUrl = url.toString()
  }
  const config = { ...loadConfig({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl }), adminPassword: FUZZ_ADMIN_PASSWORD }
  const database = await openDatabase(config.database)
  const scrypt = { N: 2 ** 10, r: 8, p: 1 }
  const app = await buildApp({ config, database, scrypt, print: () => {}, checkOutput: true, seedDemo: false, scheduleSync: false })
  const now = Date.now()
  await bootstrapDemo(database, {
    size: { members: 12, extraAdmins: 1, siteUsers: 120, torrents: 400, recordsPerMember: 30, historyDays: 40 },
    now,
    memberPasswordHash: 'x',
    adminPasswordHashes: ['x'],
  })

  let token: string | undefined
  const target: FuzzTarget = {
    app,
    database,
    async adminToken() {
      if (token) return token
      const answer = await app.inject({
        method: 'POST',
        url: `${API_PREFIX}/user/login`,
        payload: { username: 'admin', password: FUZZ_ADMIN_PASSWORD },
      })
      if (answer.statusCode !== 200) throw new Error(`admin login failed: ${answer.body}`)
      token = (answer.json() as { data: string }).data
      return token
    },
    forgetToken() {
      token = undefined
    },
    async close() {
      await app.close()
      await database.close()
      if (postgresUrl && dbName) await withClient(postgresUrl, (c) => c.query(`drop database if exists ${dbName} with (force)`))
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
  // A computed month: pay, detail and export calls find records.
  const computed = await app.inject({
    method: 'POST',
    url: `${API_PREFIX}/wages/compute`,
    headers: { [TOKEN_HEADER]: await target.adminToken() },
    payload: { period: shiftPeriod(periodOf(now, 'Asia/Shanghai'), 1) },
  })
  if (computed.statusCode !== 200) throw new Error(`wage compute failed: ${computed.body}`)
  return target
}

/**
 * Waits until no sync runs (an accepted 立即同步 starts one in the background): the next call's
 * "nothing changed" check must not see its writes.
 */
export async function syncIdle(target: FuzzTarget): Promise<void> {
  while (target.app.services.sync.busy) await new Promise((resolve) => setTimeout(resolve, 5))
}
