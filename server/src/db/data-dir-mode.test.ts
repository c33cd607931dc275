/**
 * The folders the server creates for its data (DATA_DIR's SQLite file, its logs) are its owner's alone (found by an
 * outside tester: they were readable by every local user — the database holds password and token hashes and the payout
 * ledger, the log the site's member names and errors). A folder the admin made beforehand keeps its own mode.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { logDestination } from '../logging/log-file'
import { openDatabase } from './database'

describe.skipIf(process.platform === 'win32')('the folders the server creates', () => {
  const root = mkdtempSync(join(tmpdir(), 'data-dir-mode-'))
  afterAll(() => rmSync(root, { recursive: true, force: true }))
  const mode = (path: string) => statSync(path).mode & 0o777

  it('DATA_DIR made for the SQLite file is 0700', async () => {
    const dir = join(root, 'data')
    const database = await openDatabase({ kind: 'sqlite', file: join(dir, 'seeding.db') })
    await database.close()
    expect(mode(dir)).toBe(0o700)
  })

  it('the logs folder is 0700', () => {
    logDestination(join(root, 'logged'), undefined, () => {}).write('a line\n')
    expect(mode(join(root, 'logged', 'logs'))).toBe(0o700)
  })
})
