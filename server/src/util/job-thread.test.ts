/**
 * Job threads of different kinds do not sit idle side by side: a job starting in one ends the others
 * that are idle (their heaps and page caches would add to its peak), never one that is busy.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { jobThread, liveJobThreads } from './job-thread'

const entry = { bundle: 'none', source: new URL('./testing/gc-probe-thread.ts', import.meta.url) }

describe('job threads of several kinds', () => {
  const threads = [jobThread<{ collect: boolean }>(entry), jobThread<{ collect: boolean }>(entry)]
  afterEach(async () => {
    for (const thread of threads) await thread.close()
  })

  it('end an idle thread when a job starts in another, and keep a busy one', async () => {
    const [wages, sync] = threads
    await wages!.run({ collect: false })
    expect(liveJobThreads()).toBe(1)

    const syncing = sync!.run({ collect: false })
    // The idle one stopped taking jobs at once (it closes its connections and exits meanwhile).
    expect(liveJobThreads()).toBe(1)
    await syncing

    // Both busy at once: neither ends the other.
    const both = [wages!.run({ collect: false }), sync!.run({ collect: false })]
    expect(liveJobThreads()).toBe(2)
    await Promise.all(both)
    // The next job in either is served (a new thread where the old one ended).
    expect(await wages!.run({ collect: true })).toBe(true)
    expect(liveJobThreads()).toBe(1)
  })
})
