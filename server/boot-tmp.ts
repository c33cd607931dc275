import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from './src/app'
import { loadConfig } from './src/config'
const size = process.argv[2] ?? 'default'
const dir = process.argv[3] ?? mkdtempSync(join(tmpdir(), 'boot-'))
const t = performance.now()
const app = await buildApp({ config: loadConfig({ DATA_DIR: dir, DEMO_SIZE: size, ADMIN_PASSWORD: 'Admin-pass-1', DATABASE_URL: process.env.DATABASE_URL }), logger: { level: 'debug' }, scheduleSync: false })
console.log('boot ms', Math.round(performance.now() - t), dir)
await app.close()
