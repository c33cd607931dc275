import { resolve } from 'node:path'
import { defineConfig } from 'vitest/config'
import { reporters } from '../../vitest.config.ts'

const root = resolve(import.meta.dirname, '../..')

/** Release checks on the built app: the electronegativity gate and the packed `dir` target. */
export default defineConfig({
  root,
  test: {
    name: 'release',
    include: ['tools/release-checks/**/*.check.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 300_000,
    reporters: reporters('release') as never,
  },
})
