import { availableParallelism } from 'node:os'
import { resolve } from 'node:path'
import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'

const alias = {
  '@shared': resolve(import.meta.dirname, 'src/shared'),
  '@main': resolve(import.meta.dirname, 'src/main'),
  '@renderer': resolve(import.meta.dirname, 'src/renderer/src'),
}

/** CI adds a JSON report per suite so .ci/run can print one total. */
export function reporters(name: string) {
  const dir = process.env.VITEST_JSON_DIR
  return dir ? ['default', ['json', { outputFile: `${dir}/${name}.json` }]] : ['default']
}

/** Unit and API suites. The browser suite has its own config in e2e/. */
export default defineConfig({
  resolve: { alias },
  test: {
    reporters: reporters('unit') as never,
    // Vitest's default is one worker less than the cores: one file at a time on CI's 2 cores. The server files
    // mostly wait (PostgreSQL, MariaDB, child servers, worker threads), so two overlap well (25 → 20 min there).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { resolve: { alias }, test: { name: 'shared', environment: 'node', include: ['src/shared/**/*.test.ts'] } },
      {
        resolve: { alias },
        test: {
          name: 'main',
          environment: 'node',
          include: ['src/main/**/*.test.ts'],
          // electron-store imports `electron`; inlining lets the tests' vi.mock('electron') reach it.
          server: { deps: { inline: ['electron-store'] } },
        },
      },
      {
        resolve: { alias },
        plugins: [react()],
        test: {
          name: 'renderer',
          environment: 'happy-dom',
          include: ['src/renderer/**/*.test.{ts,tsx}'],
          setupFiles: ['src/renderer/src/test/setup.ts'],
        },
      },
      // Checks of the repository's tooling (docs/api.md against the contract).
      { resolve: { alias }, test: { name: 'tools', environment: 'node', include: ['tools/**/*.test.ts'] } },
      {
        resolve: { alias },
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/src/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
})
