/**
 * Found by an outside tester (fixed since; the test keeps it so): when the page died, crash.ts asked
 * 「页面意外退出（<reason>）。是否重新加载？」 with Electron's raw reason code — `oom`, `crashed`, `killed`, … — English
 * words in a dialog of an app whose spec says "Simplified Chinese everywhere" (product.md §2). The code goes to the log;
 * the dialog says it in Chinese (内存不足, 页面进程崩溃, 页面进程被结束, …).
 */
import { describe, expect, it } from 'vitest'
import { installCrashHandler, type CrashDeps } from './crash'

function promptFor(reason: string): Promise<string> {
  return new Promise((resolve) => {
    let gone: ((event: unknown, contents: { reload(): void }, details: { reason: string }) => void) | undefined
    const deps: CrashDeps = {
      process: { on: () => {} },
      app: { on: (_event, listener) => void (gone = listener) },
      showErrorBox: () => {},
      showReloadPrompt: async (message) => (resolve(message), false),
      logDirectory: () => '/home/u/.config/保种管理台/logs',
      log: () => {},
    }
    installCrashHandler(deps)
    gone!({}, { reload: () => {} }, { reason })
  })
}

describe('the reload prompt after the page died', () => {
  it.each(['oom', 'crashed', 'killed', 'launch-failed', 'abnormal-exit', 'integrity-failure', 'memory-eviction', 'some-future-reason'])(
    'explains %s in Chinese',
    async (reason) => {
      const message = await promptFor(reason)
      // The log folder is a path and may hold Latin letters; the sentence around it must not.
      const sentence = message.replace('/home/u/.config/保种管理台/logs', '')
      expect(sentence).not.toMatch(/[A-Za-z]/)
    },
  )
})
