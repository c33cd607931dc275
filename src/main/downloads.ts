/**
 * Saving a file the server delivered (wage exports) where the user chooses in a save dialog. The bytes go to a
 * temporary file beside the target first and replace it only once all of them are on disk: a full disk, a
 * removed USB stick or a crash never leaves a half-written export — nor destroys the file it was to replace.
 */
import { randomBytes } from 'node:crypto'
import { rename, unlink, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/** The part of Electron's `dialog.showSaveDialog` options the saver sets. */
export interface SaveDialogOptions {
  title: string
  defaultPath: string
  properties?: ('showOverwriteConfirmation' | 'createDirectory')[]
}

/** The file-system calls the saver makes (a seam, so a test can fill the disk). */
export interface SaverFs {
  writeFile(path: string, bytes: Uint8Array, options: { flag: string }): Promise<void>
  rename(from: string, to: string): Promise<void>
  unlink(path: string): Promise<void>
}

export interface FileSaverDeps {
  showSaveDialog(options: SaveDialogOptions): Promise<{ canceled: boolean; filePath?: string }>
  downloadsDir(): string
  log(message: string): void
  fs?: SaverFs
}

const nodeFs: SaverFs = { writeFile, rename, unlink }

export function createFileSaver(deps: FileSaverDeps): (suggestedName: string, bytes: Uint8Array) => Promise<boolean> {
  const fs = deps.fs ?? nodeFs
  return async (suggestedName, bytes) => {
    const choice = await deps.showSaveDialog({
      title: '保存文件',
      defaultPath: join(deps.downloadsDir(), suggestedName),
      // Windows and macOS ask before replacing a file; the Linux (GTK) dialog only when told to.
      properties: ['showOverwriteConfirmation', 'createDirectory'],
    })
    if (choice.canceled || !choice.filePath) return false
    const target = choice.filePath
    const partial = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.part`)
    try {
      await fs.writeFile(partial, bytes, { flag: 'wx' }) // wx: never through a file (or link) already there
      await fs.rename(partial, target)
    } catch (error) {
      await fs.unlink(partial).catch(() => {})
      throw error
    }
    deps.log(`saved ${suggestedName}`)
    return true
  }
}

const failureMessages: Record<string, string> = {
  ENOSPC: '磁盘空间不足，文件未保存',
  EDQUOT: '磁盘空间不足，文件未保存',
  EACCES: '没有权限写入所选位置，文件未保存',
  EPERM: '没有权限写入所选位置，文件未保存',
  EROFS: '没有权限写入所选位置，文件未保存',
  EBUSY: '文件正被其他程序使用，请关闭后重试',
}

/** The Chinese message for a failed save: the usual causes by name, anything else 保存文件失败. */
export function saveFailureMessage(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code
  return (typeof code === 'string' && Object.hasOwn(failureMessages, code) ? failureMessages[code] : undefined) ?? '保存文件失败'
}
