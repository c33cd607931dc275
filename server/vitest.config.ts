/**
 * The server suite on its own (`cd server && npx vitest run [path]`): the same settings as the
 * root config's `server` project, which is what `npm test` runs.
 */
import { resolve } from 'node:path'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: { alias: { '@shared': resolve(import.meta.dirname, '../src/shared') } },
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
