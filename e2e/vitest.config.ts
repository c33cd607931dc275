import { resolve } from 'node:path'
import { defineConfig } from 'vitest/config'
import { reporters } from '../vitest.config.ts'

const root = resolve(import.meta.dirname, '..')

/** The browser suite: the built renderer in Chromium (or the real Electron app), a real server. */
export default defineConfig({
  root,
  resolve: {
    alias: { '@shared': resolve(root, 'src/shared'), '@main': resolve(root, 'src/main'), '@renderer': resolve(root, 'src/renderer/src') },
  },
  test: {
    name: 'e2e',
    reporters: reporters('e2e') as never,
    include: ['e2e/**/*.e2e.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    setupFiles: ['e2e/harness/setup.ts'],
    server: { deps: { inline: ['electron-store'] } },
  },
})
