/**
 * Under Node there is no Electron binary: electron-store (used by the real settings store) gets a
 * temp userData folder through this seam. Nothing else of Electron is needed by the handlers.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { vi } from 'vitest'

vi.mock('electron', () => {
  const userData = mkdtempSync(join(tmpdir(), 'seeding-console-e2e-'))
  const app = { getPath: () => userData, getVersion: () => '0.0.0-e2e', isPackaged: false }
  const ipcMain = { on: () => {}, handle: () => {}, removeHandler: () => {} }
  return { default: { app, ipcMain, shell: {} }, app, ipcMain }
})
