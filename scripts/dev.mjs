// `npm run dev`: the API server (SQLite in server/data, demo source, admin created on first start —
// its password is printed once below) with reload on change, plus the app with hot reload.
import { spawn } from 'node:child_process'

const port = process.env.PORT ?? '8080'
const apiBase = `http://127.0.0.1:${port}/api/v1`
const children = []

function run(command, args, options) {
  const child = spawn(command, args, { stdio: 'inherit', shell: process.platform === 'win32', ...options })
  children.push(child)
  child.on('exit', (code) => {
    // When either side stops, stop the other: a half-running dev setup only confuses.
    for (const other of children) if (other !== child && other.exitCode === null) other.kill('SIGTERM')
    process.exitCode = code ?? 0
  })
  return child
}

// NODE_ENV=development: the server checks its answers against the contract (production does not).
run('npx', ['tsx', 'watch', '--clear-screen=false', 'src/index.ts'], {
  cwd: 'server',
  env: { NODE_ENV: 'development', ...process.env, PORT: port },
})
run('npx', ['electron-vite', 'dev'], { env: { ...process.env, MAIN_VITE_API_BASE: process.env.MAIN_VITE_API_BASE ?? apiBase } })

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => children.forEach((child) => child.exitCode === null && child.kill(signal)))
}
