/**
 * A full disk under the database: recognised on both databases, answered with a Chinese message
 * that says what happened (not the generic 500), and remembered for a while so that /health reports
 * it — a plain `select 1` still succeeds on a full disk.
 */

export const diskFullMessage = '服务器磁盘空间已满，数据未能保存，请联系服务器管理员释放空间后重试'

/** How long /health reports a full disk after the last write that failed on it. */
export const DISK_FULL_REPORT_MS = 5 * 60_000

/** SQLite's SQLITE_FULL, PostgreSQL's disk_full (53100), the OS's ENOSPC — on the error or its causes. */
export function isDiskFull(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code
    if (code === 'SQLITE_FULL' || code === '53100' || code === 'ENOSPC') return true
  }
  return false
}

export class StorageTrouble {
  private lastFullAt: number | null = null

  markFull(now: number): void {
    this.lastFullAt = now
  }

  /** When a write last failed on a full disk, if that was recent. */
  recentFull(now: number): number | null {
    return this.lastFullAt !== null && now - this.lastFullAt < DISK_FULL_REPORT_MS ? this.lastFullAt : null
  }
}
