import { describe, expect, it } from 'vitest'
import { createUpdateChecker, type UpdaterLike } from './updater'

function fakeUpdater(result: () => Promise<{ updateInfo: { version: string } } | null>) {
  const listeners: Record<string, (arg: never) => void> = {}
  const feeds: string[] = []
  let installed = false
  const updater: UpdaterLike = {
    autoDownload: false,
    autoInstallOnAppQuit: false,
    setFeedURL: ({ url }) => void feeds.push(url),
    checkForUpdates: result,
    on: (event: string, listener: (arg: never) => void) => (listeners[event] = listener),
    quitAndInstall: () => void (installed = true),
  }
  return { updater, listeners, feeds, installed: () => installed }
}

function setup(
  result: () => Promise<{ updateInfo: { version: string } } | null>,
  feed = 'https://updates.example/seeding/',
  restart = true,
) {
  const fake = fakeUpdater(result)
  const logs: string[] = []
  const told: string[] = []
  const checker = createUpdateChecker({
    updater: fake.updater,
    feedUrl: () => feed,
    currentVersion: '0.1.0',
    log: (m) => void logs.push(m),
    promptRestart: async () => restart,
    inform: (m) => void told.push(m),
  })
  return { ...fake, checker, logs, told }
}

describe('update checker', () => {
  it('uses the generic provider at the configured URL and downloads in the background', async () => {
    const { checker, feeds, updater } = setup(async () => ({ updateInfo: { version: '0.2.0' } }))
    expect(await checker.check({ userAsked: false })).toBe('available')
    expect(feeds).toEqual(['https://updates.example/seeding/'])
    expect(updater.autoDownload).toBe(true)
  })

  it('turns a failed check into one quiet log line at start', async () => {
    const { checker, logs, told } = setup(async () => {
      throw new Error('getaddrinfo ENOTFOUND updates.example')
    })
    expect(await checker.check({ userAsked: false })).toBe('failed')
    expect(logs).toEqual(['update check failed: getaddrinfo ENOTFOUND updates.example'])
    expect(told).toEqual([])
  })

  it('answers the user who asked from the menu', async () => {
    const upToDate = setup(async () => ({ updateInfo: { version: '0.1.0' } }))
    expect(await upToDate.checker.check({ userAsked: true })).toBe('up-to-date')
    expect(upToDate.told[0]).toContain('已是最新版本')
    const failing = setup(async () => {
      throw new Error('500')
    })
    await failing.checker.check({ userAsked: true })
    expect(failing.told[0]).toContain('检查更新失败')
  })

  it('does nothing without an update URL', async () => {
    const { checker, feeds } = setup(async () => null, '  ')
    expect(await checker.check({ userAsked: false })).toBe('no-feed')
    expect(feeds).toEqual([])
  })

  it('logs updater error events instead of throwing, and restarts into a downloaded update when the user agrees', async () => {
    const { listeners, logs, installed } = setup(async () => null)
    listeners.error!(new Error('signature mismatch') as never)
    expect(logs).toContain('update error: signature mismatch')
    listeners['update-downloaded']!({ version: '0.2.0' } as never)
    await new Promise((r) => setTimeout(r, 0))
    expect(installed()).toBe(true)
  })
})
