/**
 * Found by an outside tester (fixed since; the test keeps it so): fileNameOf/downloadName (api-client.ts) clean the server's Content-Disposition name of folders, control
 * and bidi characters and `<>:"|?*`, but pass Windows' reserved device names through: `CON.xlsx`, `aux` → `aux.xlsx`,
 * `NUL.csv`, `COM1.xlsx`, `LPT9.csv`, `CONIN$.xlsx`. On Windows such a name is the device, not a file (Microsoft:
 * "avoid these names followed immediately by an extension; NUL.txt and NUL.tar.gz are both equivalent to NUL"): the
 * save dialog offers it, and the rename onto it fails or writes to the device, so a hostile or broken server can make
 * every wage export unsavable under its default name. The name offered should have reserved stems replaced
 * (e.g. `_CON.xlsx` or the `download` fallback).
 */
import { describe, expect, it } from 'vitest'
import { downloadName, fileNameOf } from './api-client'

const reserved = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i

describe('download file names from the server', () => {
  it.each([
    ['attachment; filename="CON.xlsx"', 'xlsx'],
    ['attachment; filename="aux"', 'xlsx'],
    ['attachment; filename="NUL.csv"', 'csv'],
    ["attachment; filename*=UTF-8''COM1.xlsx", 'xlsx'],
    ['attachment; filename="lpt9.csv"', 'csv'],
    ['attachment; filename="CONIN$.xlsx"', 'xlsx'],
  ])('never offer a Windows device name: %s', (header, format) => {
    const name = downloadName(fileNameOf(header), format)
    // Windows compares the part before the first dot, trailing spaces ignored.
    const stem = name.split('.')[0]!.replace(/[ .]+$/, '')
    expect(stem).not.toMatch(reserved)
    expect(name.endsWith(`.${format}`)).toBe(true)
  })
})
