// Adds up the vitest JSON reports of one CI run into `N passed, N failed, N skipped`.
// A failed run with no failing test counted (typecheck, build) still counts as one failure.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

const dir = join(import.meta.dirname, 'results')
const exitCode = Number(process.argv[2] ?? 0)
let passed = 0
let failed = 0
let skipped = 0
for (const file of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
  const report = JSON.parse(readFileSync(join(dir, file), 'utf8'))
  passed += report.numPassedTests ?? 0
  failed += report.numFailedTests ?? 0
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0)
  console.log(`${file}: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests} skipped`)
}
if (exitCode !== 0 && failed === 0) failed = 1
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`)
