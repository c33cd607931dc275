/**
 * The real main-process side, run in the test process: settings store (electron-store), API
 * client (ky), IPC handlers, sender check — wired exactly as src/main/index.ts wires them, with
 * a map standing in for ipcMain. The page reaches it through `window.api`, installed by the shim.
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Store from 'electron-store'
import type { Frame } from 'playwright-core'
import { createApiClient } from '@main/api-client'
import { createIpcHandlers } from '@main/ipc/handlers'
import { registerIpcHandlers, type IpcMainLike } from '@main/ipc/register'
import { createSenderCheck } from '@main/ipc/sender'
import { createSettingsStore } from '@main/settings-store'
import { ipcChannels, type RendererApi } from '@shared/ipc'

type Listener = (event: { senderFrame: { url: string; parent: unknown } | null }, arg?: unknown) => unknown

export interface MainBridge {
  invoke(frame: Frame, channel: string, arg?: unknown): Promise<unknown>
  logs: string[]
  /** Where "saved" downloads land (the save dialog's answer in the app). */
  downloadDir: string
}

export function createMainBridge(options: { appUrl: string; defaultServerAddress: string }): MainBridge {
  const logs: string[] = []
  const log = (message: string) => logs.push(message)
  // A Linux desktop without a keyring: safeStorage offers no encryption, the token is stored plain.
  const sealer = {
    isEncryptionAvailable: () => false,
    encryptString: () => {
      throw new Error('no encryption')
    },
    decryptString: () => {
      throw new Error('no encryption')
    },
  }
  const settings = createSettingsStore({
    backend: new Store({ name: `settings-${randomUUID()}` }),
    sealer,
    defaultServerAddress: options.defaultServerAddress,
  })
  const downloadDir = mkdtempSync(join(tmpdir(), 'seeding-console-downloads-'))
  const client = createApiClient({
    baseUrl: settings.apiBase,
    tokens: settings,
    log,
    // The user accepts the suggested name in the save dialog.
    saveFile: async (name, bytes) => {
      writeFileSync(join(downloadDir, name), bytes)
      return true
    },
  })
  const listeners = new Map<string, Listener>()
  const ipcMain: IpcMainLike = {
    handle: (channel, listener) => void listeners.set(channel, listener as Listener),
    removeHandler: (channel) => void listeners.delete(channel),
  }
  registerIpcHandlers(ipcMain, createIpcHandlers({ client, settings }), createSenderCheck(options.appUrl), log)

  return {
    logs,
    downloadDir,
    async invoke(frame, channel, arg) {
      const listener = listeners.get(channel)
      if (!listener) return { ok: false, code: 404, msg: `no handler for ${channel}` }
      return listener({ senderFrame: { url: frame.url(), parent: frame.parentFrame() } }, arg)
    },
  }
}

/**
 * Each IPC channel's `window.api` method as the preload defines it, in page-side JS (`invoke(channel,
 * arg)` reaches the bridge above). Keyed by the shared channel list, so a channel added there fails to
 * compile here until the shim forwards it too.
 */
const forwards = {
  apiCall: { method: 'call', forward: '(endpoint, input) => invoke(channel, { endpoint, input })' },
  settingsGet: { method: 'getSettings', forward: '() => invoke(channel)' },
  settingsSet: { method: 'setSettings', forward: '(patch) => invoke(channel, patch)' },
} as const satisfies Record<keyof typeof ipcChannels, { method: keyof RendererApi; forward: string }>

const shimMethods = (Object.keys(forwards) as (keyof typeof ipcChannels)[]).map((key) => {
  const { method, forward } = forwards[key]
  return `${method}: ((channel) => ${forward})(${JSON.stringify(ipcChannels[key])}),`
})

/** Runs in the page before its own scripts: the same `window.api` the preload exposes. */
export const bridgeShim = `
  (() => {
    // Each API call with its time and outcome, newest last: a failed wait reports what the page asked and got (ui.ts).
    const calls = (window.__apiCalls = []);
    const invoke = (channel, arg) => {
      const endpoint = arg && typeof arg === 'object' && 'endpoint' in arg ? arg.endpoint : channel;
      const call = { endpoint, start: Date.now(), ms: null, code: null };
      calls.push(call);
      if (calls.length > 50) calls.shift();
      const answer = window.__seedingIpc(channel, arg);
      Promise.resolve(answer).then(
        (reply) => {
          call.ms = Date.now() - call.start;
          call.code = reply && typeof reply === 'object' && reply.ok === false ? reply.code : 'ok';
        },
        () => {
          call.ms = Date.now() - call.start;
          call.code = 'threw';
        },
      );
      return answer;
    };
    Object.defineProperty(window, 'api', {
      value: Object.freeze({
        ${shimMethods.join('\n        ')}
      }),
    });
  })();
`
