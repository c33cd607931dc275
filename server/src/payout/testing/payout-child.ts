/**
 * A server process paying one month into a NexusPHP site, for the crash tests (crash.test.ts):
 * `tsx payout-child.ts <sqlite file> <write url> [step:n]`. With `step:n` it stops at the n-th
 * time a member's payout reaches that step, prints `PAUSED` and waits to be killed; otherwise it
 * pays and prints `DONE <results as JSON>`.
 */
import { openDatabase } from '../../db/database'
import { loadConfig } from '../../config'
import { createPayoutService } from '../service'
import { AFTER_MONTH, PERIOD } from './wage-month'

const [file, writeUrl, pauseAt] = process.argv.slice(2)
const [pauseStep, pauseCount] = (pauseAt ?? '').split(':')
let seen = 0

const database = await openDatabase({ kind: 'sqlite', file: file! })
const config = {
  ...loadConfig({}),
  source: 'nexusphp' as const,
  payout: { writeDatabaseUrl: writeUrl, webhookUrl: undefined, webhookSecret: undefined },
}
const service = createPayoutService({
  database,
  config,
  clock: () => AFTER_MONTH,
  onStep: async (step) => {
    if (step !== pauseStep || ++seen !== Number(pauseCount)) return
    process.stdout.write('PAUSED\n')
    await new Promise(() => {})
  },
})
const results = await service.run({ period: PERIOD }, { id: 1, username: 'admin' }, '127.0.0.1')
process.stdout.write(`DONE ${JSON.stringify(results)}\n`)
await service.close()
await database.close()
