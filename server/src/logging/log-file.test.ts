import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openTestDatabases, buildTestApp } from '../test/harness'
import { logDestination } from './log-file'

const dirs: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'seeding-log-'))
  dirs.push(dir)
  return dir
}
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

describe('the server log file', () => {
  it('gets every line stdout gets, under DATA_DIR/logs', () => {
    const out: string[] = []
    const dest = logDestination(tempDir(), 1024, (line) => out.push(line))
    dest.write('{"msg":"one"}\n')
    dest.write('{"msg":"two"}\n')
    expect(out).toEqual(['{"msg":"one"}\n', '{"msg":"two"}\n'])
    expect(readFileSync(dest.file, 'utf8')).toBe('{"msg":"one"}\n{"msg":"two"}\n')
  })

  it('rotates past the size limit, keeping the previous file', () => {
    const dest = logDestination(tempDir(), 40, () => {})
    for (let i = 0; i < 5; i++) dest.write(`{"msg":"line ${i} ........."}\n`)
    expect(readFileSync(dest.file, 'utf8')).toBe('{"msg":"line 4 ........."}\n')
    expect(readFileSync(`${dest.file}.1`, 'utf8')).toBe('{"msg":"line 3 ........."}\n')
  })

  it('a file that cannot be written does not stop the server: stdout says so once and keeps every line', () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'logs'), 'a file where the folder should be')
    const out: string[] = []
    const dest = logDestination(dir, 1024, (line) => out.push(line))
    dest.write('a\n')
    dest.write('b\n')
    expect(out.filter((line) => line.includes('cannot write the log file'))).toHaveLength(1)
    expect(out).toContain('a\n')
    expect(out).toContain('b\n')
  })

  it('the app writes its request log there', async () => {
    const [sqlite] = openTestDatabases()
    const db = await sqlite.open()
    // With the access log on (ACCESS_LOG=1): a successful call is logged only then (http/request-log.ts).
    const app = await buildTestApp({
      database: db.database,
      config: { ...db.config, accessLog: true },
      logger: { level: 'info' },
      adminPassword: 'Log-pass-1',
    })
    try {
      await app.inject({ method: 'GET', url: '/api/v1/health' })
      const file = join(db.config.dataDir, 'logs', 'server.log')
      expect(existsSync(file)).toBe(true)
      const log = readFileSync(file, 'utf8')
      expect(log).toContain('initial admin created')
      expect(log).toContain('"url":"/api/v1/health"')
    } finally {
      await app.close()
      await db.cleanup()
    }
  })
})
