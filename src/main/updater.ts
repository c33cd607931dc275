/**
 * Updates through electron-updater's generic provider: the feed URL is a setting (build default
 * MAIN_VITE_UPDATE_URL). Checks run at start and from the menu, never block the app, and a failed
 * check is one quiet log line — except when the user asked from the menu, who gets an answer.
 */

/** The part of electron-updater's autoUpdater the checker drives. */
export interface UpdaterLike {
  autoDownload: boolean
  autoInstallOnAppQuit: boolean
  setFeedURL(options: { provider: 'generic'; url: string }): void
  /** `isUpdateAvailable` (electron-updater 6): false also for a feed version older than the app's, outside a staged
   *  rollout or above the OS's minimum — the feed's version is reported then too, and nothing is downloaded. */
  checkForUpdates(): Promise<{ isUpdateAvailable?: boolean; updateInfo: { version: string } } | null>
  on(event: 'update-downloaded', listener: (info: { version: string }) => void): unknown
  on(event: 'error', listener: (error: Error) => void): unknown
  quitAndInstall(): void
}

export interface UpdateCheckerDeps {
  updater: UpdaterLike
  feedUrl: () => string
  currentVersion: string
  log: (message: string) => void
  /** Asks the user; resolves true for 立即重启. */
  promptRestart(version: string): Promise<boolean>
  inform(message: string): void
}

export type CheckOutcome = 'no-feed' | 'up-to-date' | 'available' | 'failed'

export function createUpdateChecker(deps: UpdateCheckerDeps) {
  const { updater, log } = deps
  updater.autoDownload = true
  updater.autoInstallOnAppQuit = true
  // electron-updater also reports failures as events; without a listener they would be thrown.
  updater.on('error', (error) => log(`update error: ${error.message}`))
  updater.on('update-downloaded', (info) => {
    void deps.promptRestart(info.version).then((restart) => restart && updater.quitAndInstall())
  })

  let configuredUrl = ''

  async function check(options: { userAsked: boolean }): Promise<CheckOutcome> {
    const url = deps.feedUrl().trim()
    if (!url) {
      log('update check skipped: no update URL configured')
      if (options.userAsked) deps.inform('未配置更新地址，请在设置中填写更新服务器地址。')
      return 'no-feed'
    }
    try {
      if (url !== configuredUrl) {
        updater.setFeedURL({ provider: 'generic', url })
        configuredUrl = url
      }
      const result = await updater.checkForUpdates()
      const latest = result?.updateInfo.version
      if (!latest || latest === deps.currentVersion || result?.isUpdateAvailable === false) {
        if (options.userAsked) deps.inform(`当前已是最新版本（${deps.currentVersion}）。`)
        return 'up-to-date'
      }
      log(`update ${latest} available; downloading`)
      if (options.userAsked) deps.inform(`发现新版本 ${latest}，正在后台下载，完成后会提示重启。`)
      return 'available'
    } catch (error) {
      log(`update check failed: ${(error as Error).message}`)
      if (options.userAsked) deps.inform('检查更新失败，请稍后再试。详细原因见日志。')
      return 'failed'
    }
  }

  return { check }
}
