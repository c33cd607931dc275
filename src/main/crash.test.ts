import { describe, expect, it } from 'vitest'
import { CRASH_TITLE, installCrashHandler, type CrashDeps } from './crash'

function setup(reloadAnswer = true) {
  const listeners: Record<string, (...args: unknown[]) => void> = {}
  const boxes: [string, string][] = []
  const logs: string[] = []
  const prompts: string[] = []
  const deps: CrashDeps = {
    process: { on: (event, listener) => (listeners[event] = listener as never) },
    app: { on: (event, listener) => (listeners[event] = listener as never) },
    showErrorBox: (title, content) => void boxes.push([title, content]),
    showReloadPrompt: async (message) => (prompts.push(message), reloadAnswer),
    logDirectory: () => '/home/u/.config/保种管理台/logs',
    log: (m) => void logs.push(m),
  }
  installCrashHandler(deps)
  return { listeners, boxes, logs, prompts }
}

describe('crash handler', () => {
  it('logs an uncaught error and shows one Chinese dialog naming the log folder', () => {
    const { listeners, boxes, logs } = setup()
    listeners.uncaughtException!(new TypeError('x is undefined'))
    listeners.unhandledRejection!(new Error('second'))
    expect(boxes).toHaveLength(1)
    expect(boxes[0]![0]).toBe(CRASH_TITLE)
    expect(boxes[0]![1]).toContain('TypeError')
    expect(boxes[0]![1]).toContain('/home/u/.config/保种管理台/logs')
    expect(logs.join('\n')).toContain('x is undefined')
    expect(logs.join('\n')).toContain('second')
  })

  it('offers to reload a renderer that crashed, and does so when asked', async () => {
    const { listeners, prompts } = setup(true)
    let reloaded = false
    listeners['render-process-gone']!({}, { reload: () => (reloaded = true) }, { reason: 'crashed' })
    await new Promise((r) => setTimeout(r, 0))
    expect(prompts[0]).toContain('页面进程崩溃')
    expect(reloaded).toBe(true)
  })

  it('says nothing when a renderer exits cleanly', () => {
    const { listeners, prompts } = setup()
    listeners['render-process-gone']!({}, { reload: () => {} }, { reason: 'clean-exit' })
    expect(prompts).toHaveLength(0)
  })
})
