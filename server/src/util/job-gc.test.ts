import { describe, expect, it } from 'vitest'
import { jobThread } from './job-thread'

describe('full collections in a job thread (job-gc.ts)', () => {
  it('collectGarbage in a thread serving jobs collects what nothing holds any more', async () => {
    const thread = jobThread<{ collect: boolean }>({ bundle: 'none', source: new URL('./testing/gc-probe-thread.ts', import.meta.url) })
    try {
      // Without the call nothing collects an object this young and small between two turns.
      expect(await thread.run({ collect: false })).toBe(false)
      expect(await thread.run({ collect: true })).toBe(true)
    } finally {
      await thread.close()
    }
  })
})
