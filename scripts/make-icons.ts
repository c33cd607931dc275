/**
 * Renders build/icon.svg (the one source image) to the PNGs the installers and the window use:
 * build/icon.png (1024², electron-builder derives .ico/.icns from it) and resources/icon.png (512²).
 * Run: npx tsx scripts/make-icons.ts (needs Chromium, as the e2e suite does).
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { chromium } from 'playwright-core'
import { CHROMIUM_PATH, chromiumArgs } from '../e2e/harness/chromium'

const root = resolve(import.meta.dirname, '..')
const svg = readFileSync(resolve(root, 'build/icon.svg'), 'utf8')

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: chromiumArgs })
try {
  for (const [size, out] of [
    [1024, 'build/icon.png'],
    [512, 'resources/icon.png'],
  ] as const) {
    const page = await browser.newPage({ viewport: { width: size, height: size } })
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${svg.replace('width="1024" height="1024"', `width="${size}" height="${size}"`)}</body></html>`,
    )
    await page.locator('svg').screenshot({ path: resolve(root, out), omitBackground: true })
    await page.close()
    console.log(`wrote ${out} (${size}×${size})`)
  }
} finally {
  await browser.close()
}
