// Start-up time of the API server (BENCHMARKS.md「服务端启动时间」): spawn → first /health answer,
// on a SQLite DATA_DIR that already holds the small demo community (a restart, not a first start).
//
//   node tools/startup-time.mjs [runs=5]
//
// Variants: TypeScript through tsx (what `npm run server` ran before the build step; warm and with
// its transform cache off, as on a fresh deployment), the built
// dist/index.js on node with and without source maps, and `npm run server` whole (npm, build, node).
import { spawn, execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const serverDir = join(root, 'server')
const runs = Number(process.argv[2] ?? 5)
const dataDir = mkdtempSync(join(tmpdir(), 'seeding-startup-'))
const env = {
  ...process.env,
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  DEMO_SIZE: 'small',
  SYNC_INTERVAL: '86400',
  LOG_LEVEL: 'info',
  ADMIN_PASSWORD: 'Startup-pass-1',
}
delete env.DATABASE_URL
delete env.NODE_ENV

const variants = [
  { name: 'tsx src/index.ts (before)', command: join(root, 'node_modules/.bin/tsx'), args: ['src/index.ts'] },
  // A fresh deployment's first start: tsx has not cached its transforms yet.
  {
    name: 'tsx src/index.ts, no transform cache',
    command: join(root, 'node_modules/.bin/tsx'),
    args: ['src/index.ts'],
    env: { TSX_DISABLE_CACHE: '1' },
  },
  { name: 'node --enable-source-maps dist/index.js (after)', command: process.execPath, args: ['--enable-source-maps', 'dist/index.js'] },
  { name: 'node dist/index.js', command: process.execPath, args: ['dist/index.js'] },
  { name: 'npm run server (npm + build + node)', command: 'npm', args: ['run', 'server'], cwd: root },
]

const tick = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }))

/** CPU milliseconds (user + system, with reaped children) of every process in a process group (Linux /proc). */
function groupCpu(pgid) {
  let ticks = 0
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let stat
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    } catch {
      continue // gone meanwhile
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (Number(fields[2]) === pgid) ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])
  }
  return ticks * tick
}

/**
 * Wall milliseconds from spawn to the first /health answer, and the CPU the processes had used by then
 * (less sensitive to a busy machine than the wall time). The server is stopped (SIGTERM to its group) after.
 */
async function once({ command, args, cwd = serverDir, env: extra }) {
  const started = performance.now()
  const child = spawn(command, args, { cwd, env: { ...env, ...extra }, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  let output = ''
  const url = await new Promise((ok, fail) => {
    const check = (chunk) => {
      output += chunk
      const match = output.match(/"url":"(http:\/\/127\.0\.0\.1:\d+\/api\/v1)"/)
      if (match) ok(match[1])
    }
    child.stdout.on('data', check)
    child.stderr.on('data', check)
    child.once('exit', () => fail(new Error(`exited before listening:\n${output.slice(-2000)}`)))
  })
  const res = await fetch(`${url}/health`)
  if (res.status !== 200) throw new Error(`/health answered ${res.status}`)
  const ms = performance.now() - started
  const cpu = groupCpu(child.pid)
  const gone = new Promise((ok) => child.once('exit', ok))
  process.kill(-child.pid, 'SIGTERM')
  await gone
  return { ms, cpu }
}

try {
  execFileSync(process.execPath, ['build.mjs'], { cwd: serverDir })
  await once(variants[1]) // creates the database and the demo community; not measured
  const before = loadavg()
  console.log(`${cpus().length} cores, load average ${before.map((l) => l.toFixed(2)).join(' ')} at start`)
  const buildTimes = []
  for (let i = 0; i < runs; i++) {
    const t = performance.now()
    execFileSync(process.execPath, ['build.mjs'], { cwd: serverDir })
    buildTimes.push(performance.now() - t)
  }
  // One unmeasured start of each (tsx fills its cache), then rounds that take each variant in turn, so a
  // change in the machine's load falls on all of them alike.
  for (const variant of variants) await once(variant)
  const results = variants.map(() => [])
  for (let i = 0; i < runs; i++) {
    for (const [v, variant] of variants.entries()) results[v].push(await once(variant))
  }
  const after = loadavg()
  const median = (values) => Math.round([...values].sort((a, b) => a - b)[Math.floor(values.length / 2)])
  const spread = (values) => `${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))}`
  console.log('| variant | wall ms, median | wall ms, range | CPU ms, median | CPU ms, range |')
  console.log('|---|---|---|---|---|')
  console.log(`| node build.mjs (esbuild bundle) | ${median(buildTimes)} | ${spread(buildTimes)} | | |`)
  for (const [v, variant] of variants.entries()) {
    const wall = results[v].map((r) => r.ms)
    const cpu = results[v].map((r) => r.cpu)
    console.log(`| ${variant.name} | ${median(wall)} | ${spread(wall)} | ${median(cpu)} | ${spread(cpu)} |`)
  }
  console.log(`load average ${after.map((l) => l.toFixed(2)).join(' ')} at end`)
} finally {
  rmSync(dataDir, { recursive: true, force: true })
}
