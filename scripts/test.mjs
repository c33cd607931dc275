// `npm test`: every stage runs even when an earlier one failed (a unit failure must not hide the
// e2e results of the same run); stages that need the build wait for it. Exits 1 if any stage failed.
import { spawnSync } from 'node:child_process'

const stages = [
  { name: 'typecheck', command: 'npm run typecheck' },
  { name: 'lint', command: 'npm run lint' },
  { name: 'server build', command: 'npm run build --workspace server' },
  { name: 'unit', command: 'npx vitest run' },
  { name: 'build', command: 'npx electron-vite build' },
  { name: 'e2e', command: 'npm run e2e', needs: 'build' },
  { name: 'release checks', command: 'npm run check:release', needs: 'build' },
]

const outcome = new Map()
for (const stage of stages) {
  if (stage.needs && outcome.get(stage.needs) !== 'passed') {
    outcome.set(stage.name, `not run (${stage.needs} failed)`)
    continue
  }
  console.log(`\n--- ${stage.name}: ${stage.command}`)
  const { status } = spawnSync(stage.command, { stdio: 'inherit', shell: true })
  outcome.set(stage.name, status === 0 ? 'passed' : `failed (exit ${status})`)
}
console.log('\n--- npm test')
for (const [name, result] of outcome) console.log(`${name}: ${result}`)
process.exit([...outcome.values()].every((r) => r === 'passed') ? 0 : 1)
