/**
 * The property-based fuzz suite, in CI: malformed bodies, queries, path segments and headers for
 * every contract call, generated from the contract, through the real app on each database.
 * Fixed seed, bounded count; `npm run fuzz --workspace server` runs a random seed and more.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { isPostgresUrl } from '../config'
import { describeRequest, sendAndJudge, stateFingerprint } from './check'
import type { AddressInfo } from 'node:net'
import { finalStatus, judgeRaw, RAW_IN_CI, rawRequest, sendRaw } from './raw-http'
import { anyMalformedRequest, FUZZ_KNOWN_FAULTS } from './requests'
import { openFuzzTarget, syncIdle, type FuzzTarget } from './target'

const SEED = 20261124
const RUNS = 500
const RAW_RUNS = 200

const backends = [{ name: 'sqlite', url: undefined as string | undefined }]
if (process.env.DATABASE_URL && isPostgresUrl(process.env.DATABASE_URL)) backends.push({ name: 'postgres', url: process.env.DATABASE_URL })

describe.each(backends)('fuzzing every contract call on $name', { timeout: 240_000 }, ({ url }) => {
  let target: FuzzTarget
  beforeAll(async () => {
    target = await openFuzzTarget(url)
  }, 120_000)
  afterAll(async () => {
    await target?.close()
  })

  it(`never a 5xx, always the envelope, a Chinese message, nothing changed by a rejection (${RUNS} requests, seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(anyMalformedRequest(FUZZ_KNOWN_FAULTS), async (request) => {
        const verdict = await sendAndJudge(target.app, target.database, request, () => target.adminToken())
        await syncIdle(target)
        if (verdict.status === 401 && request.asAdmin) target.forgetToken()
        if (verdict.fault) throw new Error(`${verdict.fault}\n  ${describeRequest(request)}`)
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    )
  })

  it(`raw HTTP on a listening server: never a 5xx, always the envelope in Chinese, nothing changed (${RAW_RUNS} requests, seed ${SEED})`, async () => {
    await target.app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = target.app.server.address() as AddressInfo
    await fc.assert(
      fc.asyncProperty(rawRequest(RAW_IN_CI), async (request) => {
        // The admin's token first (it may log in, which adds a session) and no sync still running:
        // only what the request itself does may move the fingerprint.
        const token = request.asAdmin ? await target.adminToken() : null
        await syncIdle(target)
        const before = await stateFingerprint(target.database)
        const response = await sendRaw(port, request, token)
        const fault = judgeRaw(response, request.head)
        if (fault) throw new Error(`${fault}\n  sent ${request.summary}\n  got ${JSON.stringify(response.slice(0, 800))}`)
        await syncIdle(target)
        const status = finalStatus(response)
        const after = await stateFingerprint(target.database)
        if (status !== 200 && after !== before) {
          throw new Error(
            `a rejected request (${status}) changed the data: ${before} → ${after}\n  sent ${request.summary}\n  got ${JSON.stringify(response.slice(0, 400))}`,
          )
        }
      }),
      { seed: SEED, numRuns: RAW_RUNS, endOnFailure: true },
    )
  })
})
