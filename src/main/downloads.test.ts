/** Saving downloads: the user's choice of place, never a half-written file, a clear message when it fails. */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { rename, unlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createFileSaver, saveFailureMessage, type SaveDialogOptions } from './downloads'

const bytes = new TextEncoder().encode('period,amount\n2026-10,12\n'.repeat(100))

function saverInto(folder: string, chosen: string | null, fs?: Parameters<typeof createFileSaver>[0]['fs']) {
  const asked: SaveDialogOptions[] = []
  const save = createFileSaver({
    showSaveDialog: async (options) => (
      asked.push(options),
      chosen ? { canceled: false, filePath: join(folder, chosen) } : { canceled: true }
    ),
    downloadsDir: () => folder,
    log: () => {},
    fs,
  })
  return { save, asked }
}

describe('saving a download', () => {
  it('offers the downloads folder and asks before replacing a file (Linux does not unless told)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'downloads-'))
    const { save, asked } = saverInto(folder, 'wages.csv')
    expect(await save('wages.csv', bytes)).toBe(true)
    expect(asked[0]).toMatchObject({ defaultPath: join(folder, 'wages.csv') })
    expect(asked[0]!.properties).toContain('showOverwriteConfirmation')
    expect(readFileSync(join(folder, 'wages.csv'))).toEqual(Buffer.from(bytes))
    expect(readdirSync(folder)).toEqual(['wages.csv'])
  })

  it('writes nothing when the user cancels', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'downloads-'))
    expect(await saverInto(folder, null).save('wages.csv', bytes)).toBe(false)
    expect(readdirSync(folder)).toEqual([])
  })

  it('keeps the file it was to replace, and leaves no fragment, when the disk fills up', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'downloads-'))
    writeFileSync(join(folder, 'wages.csv'), 'last month, still needed')
    const diskFull = {
      // Half the bytes reach the disk, then it is full.
      writeFile: async (path: string, data: Uint8Array, options: { flag: string }) => {
        await writeFile(path, data.subarray(0, data.length / 2), options)
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })
      },
      rename,
      unlink,
    }
    const { save } = saverInto(folder, 'wages.csv', diskFull)
    const failure = await save('wages.csv', bytes).catch((error: unknown) => error)
    expect(failure).toMatchObject({ code: 'ENOSPC' })
    expect(saveFailureMessage(failure)).toBe('磁盘空间不足，文件未保存')
    expect(readFileSync(join(folder, 'wages.csv'), 'utf8')).toBe('last month, still needed')
    expect(readdirSync(folder)).toEqual(['wages.csv'])
  })

  it('names the usual causes of a failed save in Chinese', () => {
    const failed = (code: string) => Object.assign(new Error(code), { code })
    expect(saveFailureMessage(failed('EACCES'))).toBe('没有权限写入所选位置，文件未保存')
    expect(saveFailureMessage(failed('EBUSY'))).toBe('文件正被其他程序使用，请关闭后重试')
    expect(saveFailureMessage(new Error('other'))).toBe('保存文件失败')
  })
})
