/**
 * Test-only: `FAULT_PAUSE=wages.pay=400` (NODE_ENV=test only) makes the named step wait that many
 * ms inside its transaction, so the fault suite's SIGKILL lands inside a step that otherwise ends in
 * well under a millisecond (a pay of a few records on SQLite). Anywhere else it is a no-op.
 */
const pauses: ReadonlyMap<string, number> = (() => {
  const spec = process.env.NODE_ENV === 'test' ? process.env.FAULT_PAUSE : undefined
  const out = new Map<string, number>()
  for (const part of spec?.split(',') ?? []) {
    const [step, ms] = part.split('=')
    if (step && Number(ms) > 0) out.set(step.trim(), Number(ms))
  }
  return out
})()

export async function faultPause(step: 'wages.pay'): Promise<void> {
  const ms = pauses.get(step)
  if (ms) await new Promise((resolve) => setTimeout(resolve, ms))
}
