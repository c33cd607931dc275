/**
 * `npm run fuzz --workspace server [-- --runs 4000] [--seed N] [--all] [--quiet]`: the fuzz suite with a
 * random seed (printed, so a failure can be replayed with --seed) and a larger count, on SQLite and,
 * when DATABASE_URL points at PostgreSQL, on PostgreSQL too. Prints every request it tried with the
 * status it got, then the faults found. --all also generates what CI leaves out (known faults).
 * Exit code 1 when any fault was found.
 */
import type { AddressInfo } from 'node:net'
import { parseArgs } from 'node:util'
import fc from 'fast-check'
import { isPostgresUrl } from '../config'
import { describeRequest, sendAndJudge, stateFingerprint } from './check'
import { finalStatus, judgeRaw, RAW_IN_CI, rawRequest, sendRaw } from './raw-http'
import { anyMalformedRequest, FUZZ_KNOWN_FAULTS } from './requests'
import { openFuzzTarget, syncIdle } from './target'

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '2000' },
    seed: { type: 'string' },
    all: { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
  },
})
const runs = Number(values.runs)
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed)
const options = values.all ? { nul: true } : FUZZ_KNOWN_FAULTS
const rawOptions = RAW_IN_CI

const databases: { name: string; url?: string }[] = [{ name: 'sqlite' }]
if (process.env.DATABASE_URL && isPostgresUrl(process.env.DATABASE_URL)) databases.push({ name: 'postgres', url: process.env.DATABASE_URL })

let faults = 0
for (const { name, url } of databases) {
  console.log(`== ${name}: ${runs} requests, seed ${seed}${values.all ? ', known faults included' : ''}`)
  const target = await openFuzzTarget(url)
  const statuses = new Map<number, number>()
  try {
    const samples = fc.sample(anyMalformedRequest(options), { seed, numRuns: runs })
    for (const [i, request] of samples.entries()) {
      const verdict = await sendAndJudge(target.app, target.database, request, () => target.adminToken())
      await syncIdle(target)
      if (verdict.status === 401 && request.asAdmin) target.forgetToken()
      statuses.set(verdict.status, (statuses.get(verdict.status) ?? 0) + 1)
      if (!values.quiet || verdict.fault) console.log(`${String(i + 1).padStart(5)} ${verdict.status} ${describeRequest(request)}`)
      if (verdict.fault) {
        faults++
        console.log(`      FAULT: ${verdict.fault}`)
      }
    }
    // Raw HTTP on a listening server: a fifth as many.
    await target.app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = target.app.server.address() as AddressInfo
    const raws = fc.sample(rawRequest(rawOptions), { seed, numRuns: Math.ceil(runs / 5) })
    for (const [i, request] of raws.entries()) {
      const before = await stateFingerprint(target.database)
      const response = await sendRaw(port, request, request.asAdmin ? await target.adminToken() : null)
      await syncIdle(target)
      const status = finalStatus(response)
      statuses.set(status, (statuses.get(status) ?? 0) + 1)
      let fault = judgeRaw(response, request.head)
      if (!fault && status !== 200 && (await stateFingerprint(target.database)) !== before) fault = 'a rejected request changed the data'
      if (!values.quiet || fault || !status)
        console.log(`${String(i + 1).padStart(5)} ${status || 'closed without an answer'} raw ${request.summary}`)
      if (fault) {
        faults++
        console.log(`      FAULT: ${fault}`)
      }
    }
  } finally {
    await target.close()
  }
  console.log(`== ${name}: statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`)
}
console.log(faults ? `${faults} faults (seed ${seed})` : `no faults (seed ${seed})`)
process.exitCode = faults ? 1 : 0
