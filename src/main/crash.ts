/**
 * Last-resort error handling: an unexpected error in main or a renderer that dies is written to
 * the log and explained in a Chinese dialog that says where the log is. The app never vanishes
 * silently, and the log is kept.
 */

export interface CrashDeps {
  process: { on(event: 'uncaughtException' | 'unhandledRejection', listener: (error: unknown) => void): unknown }
  app: {
    on(event: 'render-process-gone', listener: (event: unknown, contents: { reload(): void }, details: { reason: string }) => void): unknown
  }
  showErrorBox(title: string, content: string): void
  showReloadPrompt(message: string): Promise<boolean>
  logDirectory: () => string
  log: (message: string) => void
}

export const CRASH_TITLE = '保种管理台出错了'

/** Electron's render-process-gone reasons, as the reload prompt says them (the code itself goes to the log). */
const goneReasons: Record<string, string> = {
  'abnormal-exit': '页面进程异常退出',
  killed: '页面进程被结束',
  crashed: '页面进程崩溃',
  oom: '内存不足',
  'launch-failed': '页面进程无法启动',
  'integrity-failure': '程序文件校验失败，请重新安装',
  'memory-eviction': '内存不足，页面被系统回收',
}

export function installCrashHandler(deps: CrashDeps): void {
  let shown = false
  const report = (error: unknown) => {
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error)
    deps.log(`unexpected error: ${text}`)
    if (shown) return // one dialog per run; later errors only go to the log
    shown = true
    const name = error instanceof Error ? error.name : '未知错误'
    deps.showErrorBox(
      CRASH_TITLE,
      `发生了意外错误（${name}）。\n详细信息已写入日志，日志目录：\n${deps.logDirectory()}\n\n如问题反复出现，请把日志发给管理员。`,
    )
  }
  deps.process.on('uncaughtException', report)
  deps.process.on('unhandledRejection', report)

  deps.app.on('render-process-gone', (_event, contents, details) => {
    deps.log(`renderer gone: ${details.reason}`)
    if (details.reason === 'clean-exit') return
    const why = goneReasons[details.reason] ?? '原因不明'
    void deps.showReloadPrompt(`页面意外退出（${why}）。是否重新加载？日志目录：${deps.logDirectory()}`).then((reload) => {
      if (reload) contents.reload()
    })
  })
}
