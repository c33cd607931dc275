/**
 * The main-process log file (userData/logs/main.log via electron-log, rotated at 1 MiB with one
 * archive kept). Secrets never reach it: every message passes through `redactSecrets` first.
 */

// A quoted value runs to its closing quote, past escaped ones (`\"`: JSON writes a password's own quotes so).
const secretPatterns: [RegExp, string][] = [
  [/((?:access-token|device-key)["']?\s*[:=]\s*["']?)[^\s"',;}]+/gi, '$1[已隐藏]'],
  [/("?(?:token|password|oldPassword|newPassword|deviceKey|device-key)"?\s*[:=]\s*)"(?:[^"\\]|\\.)*"/gi, '$1"[已隐藏]"'],
  [/((?:token|password)=)[^\s&]+/gi, '$1[已隐藏]'],
]

/** Removes tokens and passwords from a log line, whatever shape they were written in. */
export function redactSecrets(text: string): string {
  return secretPatterns.reduce((line, [pattern, replacement]) => line.replace(pattern, replacement), text)
}

/**
 * A server's text as one bounded log line: control characters and line separators escaped (`\n` would let the text
 * write lines of its own into main.log), at most `max` characters (one key of megabytes would push the log's earlier
 * entries out: it keeps 1 MiB and one archive).
 */
export function logLine(text: string, max = 2000): string {
  // eslint-disable-next-line no-control-regex -- the control characters are what is escaped
  const escaped = text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  return escaped.length > max ? `${escaped.slice(0, max)}…（共 ${escaped.length} 个字符，已截断）` : escaped
}

/** The part of electron-log's logger the app configures. */
export interface ConfigurableLog {
  transports: { file: { level: string | false; maxSize: number }; console: { level: string | false } }
  hooks: { push(hook: <M extends { data: unknown[] }>(message: M) => M): unknown }
}

export function configureLogFile(log: ConfigurableLog, options: { dev: boolean }): void {
  log.transports.file.level = 'info'
  log.transports.file.maxSize = 1024 * 1024
  log.transports.console.level = options.dev ? 'debug' : false
  log.hooks.push((message) => ({
    ...message,
    data: message.data.map((item) =>
      typeof item === 'string'
        ? redactSecrets(item)
        : item instanceof Error
          ? redactSecrets(item.stack ?? item.message)
          : redactSecrets(safeJson(item)),
    ),
  }))
}

function safeJson(value: unknown): string {
  try {
    return typeof value === 'object' ? JSON.stringify(value) : String(value)
  } catch {
    return String(value)
  }
}
