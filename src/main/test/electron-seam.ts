/**
 * The seam between main-process code and the Electron binary for tests under Node: a temp
 * userData folder for electron-store, and a reversible "OS encryption" for safeStorage.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Sealer } from '../settings-store'

export const userDataDir = mkdtempSync(join(tmpdir(), 'seeding-console-main-'))

/** What `vi.mock('electron', () => electronMock())` returns. */
export function electronMock() {
  const app = { getPath: () => userDataDir, getVersion: () => '0.0.0-test', isPackaged: false }
  const ipcMain = { on: () => {}, handle: () => {}, removeHandler: () => {} }
  return { default: { app, ipcMain, shell: {} }, app, ipcMain }
}

/** A sealer that really transforms the bytes, so a test can tell a sealed token from a plain one. */
export function xorSealer(available = true): Sealer {
  const flip = (bytes: Buffer) => Buffer.from(bytes.map((b) => b ^ 0x5a))
  return {
    isEncryptionAvailable: () => available,
    encryptString: (plain) => flip(Buffer.from(plain, 'utf8')),
    decryptString: (sealed) => flip(sealed).toString('utf8'),
  }
}
