/**
 * Where the server's log goes: every line to stdout (for a process manager or a terminal) and to
 * `DATA_DIR/logs/server.log` (DATA_DIR holds the logs). The file is rotated once
 * it passes `maxBytes`: the previous one stays as `server.log.1`, so the log never fills the disk.
 * Writes are synchronous, as pino's default: a crash loses no line. A file that cannot be written
 * (disk full, permissions) never stops the server; stdout still gets every line.
 */
import { closeSync, fstatSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs'
import { join } from 'node:path'

export const LOG_FILE_MAX_BYTES = 10 * 1024 * 1024

export interface LogDestination {
  write(line: string): void
  /** The file the log is written to. */
  readonly file: string
}

export function logDestination(
  dataDir: string,
  maxBytes = LOG_FILE_MAX_BYTES,
  stdout: (line: string) => void = (line) => void process.stdout.write(line),
): LogDestination {
  const dir = join(dataDir, 'logs')
  const file = join(dir, 'server.log')
  let fd: number | null = null
  let size = 0
  let failed = false

  const open = () => {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    fd = openSync(file, 'a')
    size = fstatSync(fd).size
  }
  const rotate = () => {
    if (fd !== null) closeSync(fd)
    fd = null
    renameSync(file, `${file}.1`)
    open()
  }

  return {
    file,
    write(line: string) {
      stdout(line)
      try {
        if (fd === null) open()
        const bytes = Buffer.byteLength(line)
        if (size > 0 && size + bytes > maxBytes) rotate()
        size += writeSync(fd as number, line)
        failed = false
      } catch (error) {
        // Said once per failure spell, on stdout, which still works.
        if (!failed)
          stdout(
            `${JSON.stringify({ level: 50, time: Date.now(), msg: `cannot write the log file ${file}: ${(error as Error).message}` })}\n`,
          )
        failed = true
        if (fd !== null) {
          try {
            closeSync(fd)
          } catch {
            // already unusable
          }
          fd = null
        }
      }
    },
  }
}
