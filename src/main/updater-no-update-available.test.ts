/**
 * Found by an outside tester (fixed since; the test keeps it so): updater.ts decided "a new version is available" by
 * `latest !== currentVersion` on the feed's `updateInfo.version`. electron-updater 6 (AppUpdater doCheckForUpdates)
 * answers `{ isUpdateAvailable: false, updateInfo }` with the feed's version also when that version is OLDER than the
 * running app, when the user is outside a staged rollout, or when the OS is below the release's minimum — and
 * downloads nothing. A user who asked from 帮助 → 检查更新 was told 「发现新版本 0.3.7，正在后台下载，完成后会提示重启」:
 * an older version, and a download and restart prompt that never came. Now 「当前已是最新版本」.
 */
import { describe, expect, it } from 'vitest'
import { createUpdateChecker, type UpdaterLike } from './updater'

function checkerAnswering(result: { isUpdateAvailable: boolean; updateInfo: { version: string } }) {
  const told: string[] = []
  const updater: UpdaterLike = {
    autoDownload: false,
    autoInstallOnAppQuit: false,
    setFeedURL: () => {},
    // What electron-updater 6.8 resolves to when the feed's latest.yml names an older version.
    checkForUpdates: async () => result,
    on: () => updater,
    quitAndInstall: () => {},
  }
  const checker = createUpdateChecker({
    updater,
    feedUrl: () => 'https://updates.example/seeding/',
    currentVersion: '0.3.8',
    log: () => {},
    promptRestart: async () => false,
    inform: (m) => void told.push(m),
  })
  return { checker, told }
}

describe('a feed whose latest version is older than the running app', () => {
  it('is not announced as a new version being downloaded', async () => {
    const { checker, told } = checkerAnswering({ isUpdateAvailable: false, updateInfo: { version: '0.3.7' } })
    const outcome = await checker.check({ userAsked: true })
    expect(outcome).toBe('up-to-date')
    expect(told.join('\n')).not.toContain('发现新版本')
  })

  it('nor is a release the updater itself declined (staged rollout, OS too old)', async () => {
    const { checker, told } = checkerAnswering({ isUpdateAvailable: false, updateInfo: { version: '0.4.0' } })
    expect(await checker.check({ userAsked: true })).not.toBe('available')
    expect(told.join('\n')).not.toContain('正在后台下载')
  })
})
