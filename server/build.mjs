// `npm run build --workspace server`: bundles src/index.ts and the contract it imports (`@shared/*`,
// resolved through tsconfig.json's paths) into dist/index.js, which `npm run server` runs with plain
// node, and the worker threads (src/wages/worker.ts, src/jobs/sync-thread.ts) into dist/wage-worker.js
// and dist/sync-worker.js beside it. Packages
// (fastify, kysely, zod, and the native better-sqlite3, pg, mysql2) stay imports, loaded from
// node_modules at run time. Migrations are in the bundle: db/migrations/index.ts imports
// each one by name. dist/ sits beside src/, so the paths code resolves from `import.meta.url`
// (config.ts's server folder, version.ts's root package.json) are the same from either.
import { mkdir, rename, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { build } from 'esbuild'

const serverDir = import.meta.dirname
const outdir = join(serverDir, 'dist')

const result = await build({
  absWorkingDir: serverDir,
  // Each worker thread (util/job-thread.ts starts it from beside index.js) is a bundle of its own.
  entryPoints: {
    index: 'src/index.ts',
    'wage-worker': 'src/wages/worker.ts',
    'sync-worker': 'src/jobs/sync-thread.ts',
  },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  tsconfig: 'tsconfig.json',
  // Stack traces point at src/*.ts (`node --enable-source-maps`); the sources themselves stay out of the map.
  sourcemap: true,
  sourcesContent: false,
  legalComments: 'none',
  logLevel: 'warning',
  write: false,
})

// Each file is written beside its final name and renamed over it: a test or a second build running at
// the same time never loads half a bundle.
for (const file of result.outputFiles) {
  await mkdir(dirname(file.path), { recursive: true })
  const temporary = `${file.path}.${process.pid}.tmp`
  await writeFile(temporary, file.contents)
  await rename(temporary, file.path)
}
