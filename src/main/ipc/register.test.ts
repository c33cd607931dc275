import { describe, expect, it } from 'vitest'
import { ipcChannels, type IpcHandlers } from '@shared/index'
import { registerIpcHandlers, type IpcMainLike } from './register'
import { createSenderCheck } from './sender'

function fakeIpcMain() {
  const handlers = new Map<string, (event: unknown, ...args: unknown[]) => unknown>()
  const ipcMain: IpcMainLike = {
    handle: (channel, listener) => void handlers.set(channel, listener as never),
    removeHandler: (channel) => void handlers.delete(channel),
  }
  return { ipcMain, handlers }
}

const handlers: IpcHandlers = {
  [ipcChannels.apiCall]: async () => ({ ok: true, data: 'called' }),
  [ipcChannels.settingsGet]: async () => ({ serverAddress: 'http://h/api/v1', navTheme: 'realDark', updateUrl: '' }),
  [ipcChannels.settingsSet]: async () => {
    throw new Error('disk full')
  },
}
const appUrl = 'file:///app/out/renderer/index.html'
const own = { senderFrame: { url: appUrl, parent: null } }

describe('IPC registration', () => {
  it('registers every channel of the contract and removes them again', () => {
    const { ipcMain, handlers: registered } = fakeIpcMain()
    const dispose = registerIpcHandlers(ipcMain, handlers, createSenderCheck(appUrl))
    expect([...registered.keys()].sort()).toEqual(Object.values(ipcChannels).sort())
    dispose()
    expect(registered.size).toBe(0)
  })

  it('answers a foreign sender with 403 without running the handler', async () => {
    const { ipcMain, handlers: registered } = fakeIpcMain()
    const logs: string[] = []
    registerIpcHandlers(ipcMain, handlers, createSenderCheck(appUrl), (m) => logs.push(m))
    const answer = await registered.get('api:call')!({ senderFrame: { url: 'https://evil.example/', parent: null } }, {})
    expect(answer).toEqual({ ok: false, code: 403, msg: '无权限' })
    expect(logs[0]).toContain('refused api:call')
  })

  it('passes the payload through for the app itself', async () => {
    const { ipcMain, handlers: registered } = fakeIpcMain()
    registerIpcHandlers(ipcMain, handlers, createSenderCheck(appUrl))
    expect(await registered.get('api:call')!(own, { endpoint: 'health' })).toEqual({ ok: true, data: 'called' })
  })

  it('never lets an exception cross IPC', async () => {
    const { ipcMain, handlers: registered } = fakeIpcMain()
    registerIpcHandlers(ipcMain, handlers, createSenderCheck(appUrl))
    expect(await registered.get('settings:set')!(own, { navTheme: 'light' })).toEqual({ ok: false, code: 500, msg: '请求出错' })
  })
})
