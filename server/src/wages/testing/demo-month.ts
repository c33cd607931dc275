/**
 * A demo community on a test database for the wage worker tests: generated (with months of
 * counter snapshots) by the demo source, so a past month has real wages to preview and compute.
 */
import { generateTestDemo } from '../../sources/demo/testing/generate'
import type { DemoScale } from '../../sources/demo/scale'
import type { TestBackend, TestDatabase } from '../../test/harness'

/** 2026-03-15 12:00 UTC: February 2026 is a whole past month with snapshots at both ends. */
export const DEMO_NOW = Date.UTC(2026, 2, 15, 12)
export const DEMO_PERIOD = '2026-02'

export async function openDemoMonth(backend: TestBackend, scale: DemoScale): Promise<TestDatabase> {
  const opened = await backend.open()
  await generateTestDemo(opened.database, { seed: 'wage-worker', scale, now: DEMO_NOW })
  return opened
}
