/**
 * Packs the `dir` target with electron-builder against an Electron-shaped stand-in folder (the
 * real binary cannot be downloaded here) and checks what an installer would ship:
 * the fuses the build must set, an app.asar with only the desktop app in it, and its size.
 * Needs `npm run build` first (out/ is what gets packed).
 */
import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { listPackage } from '@electron/asar'
import { getCurrentFuseWire } from '@electron/fuses'
import { beforeAll, describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '../..')
const MAX_ASAR_BYTES = 15 * 1024 * 1024

/** Electron's fuse wire: sentinel, wire version 1, length, then one byte per fuse ('0'/'1'). */
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'
// Electron's defaults, in FuseV1Options order: RunAsNode on, CookieEncryption off, NODE_OPTIONS on,
// --inspect on, asar integrity off, only-from-asar off, browser V8 snapshot off, file:// privileges on.
const ELECTRON_DEFAULT_WIRE = '10110001'

function standInElectron(): string {
  const dir = mkdtempSync(join(tmpdir(), 'electron-stand-in-'))
  mkdirSync(join(dir, 'resources'))
  const binary = Buffer.concat([
    Buffer.from('#!/bin/sh\nexit 0\n# '),
    Buffer.from(SENTINEL),
    Buffer.from([1, ELECTRON_DEFAULT_WIRE.length]),
    Buffer.from(ELECTRON_DEFAULT_WIRE),
    Buffer.from('\n'),
  ])
  writeFileSync(join(dir, 'electron'), binary)
  chmodSync(join(dir, 'electron'), 0o755)
  writeFileSync(join(dir, 'LICENSE'), 'stand-in')
  writeFileSync(join(dir, 'version'), JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')).version)
  return dir
}

describe('electron-builder dir pack', () => {
  let unpacked = ''
  let entries: string[] = []

  beforeAll(() => {
    if (!existsSync(join(root, 'out/main/index.js'))) throw new Error('run `npm run build` first')
    const output = mkdtempSync(join(tmpdir(), 'seeding-console-dist-'))
    execFileSync(
      join(root, 'node_modules/.bin/electron-builder'),
      ['--linux', 'dir', `-c.electronDist=${standInElectron()}`, `-c.directories.output=${output}`],
      { cwd: root, stdio: 'inherit', env: { ...process.env, CSC_IDENTITY_AUTO_DISCOVERY: 'false' } },
    )
    unpacked = join(output, 'linux-unpacked')
    entries = listPackage(join(unpacked, 'resources/app.asar'), { isPack: false })
  })

  it('sets every security fuse', async () => {
    const wire = await getCurrentFuseWire(join(unpacked, 'seeding-console'))
    const states = Array.from({ length: ELECTRON_DEFAULT_WIRE.length }, (_, i) => String.fromCharCode(wire[i as 0] as number)).join('')
    // RunAsNode off, CookieEncryption on, NODE_OPTIONS off, --inspect off, asar integrity on,
    // only-from-asar on, V8 snapshot untouched, file:// privileges off.
    expect(states).toBe('01001100')
  })

  it('ships main, preload and renderer', () => {
    for (const file of ['/out/main/index.js', '/out/preload/index.cjs', '/out/renderer/index.html', '/package.json'])
      expect(entries).toContain(file)
  })

  it('holds no server code, database driver or dev tooling', () => {
    const forbidden = [
      /^\/server\//,
      /^\/src\//,
      /\/node_modules\/(better-sqlite3|pg|pg-[a-z]+|mysql2|kysely|fastify|@fastify)\//,
      /\/node_modules\/(vite|vitest|typescript|electron|electron-builder|electron-vite|playwright-core|happy-dom|@testing-library)\//,
      /\/node_modules\/(react|react-dom|antd|echarts)\//,
      /\.(test|spec)\.[jt]sx?$/,
      /\.map$/,
    ]
    const offending = entries.filter((entry) => forbidden.some((pattern) => pattern.test(entry)))
    expect(offending).toEqual([])
  })

  it(`keeps app.asar under ${MAX_ASAR_BYTES / 1024 / 1024} MB`, () => {
    const size = statSync(join(unpacked, 'resources/app.asar')).size
    console.log(`app.asar: ${(size / 1024 / 1024).toFixed(2)} MB, ${entries.length} entries`)
    expect(size).toBeLessThan(MAX_ASAR_BYTES)
  })
})
