/** The counting window and baseline rules of window.ts, one case per branch (hours as counters). */
import { describe, expect, it } from 'vitest'
import { windowGain, type RecordHistory } from './window'

const H = 3600
const DAY = 86_400_000
const period = { startMs: 100 * DAY, endMs: 130 * DAY }
const c = (hours: number) => ({ seedTimeSec: hours * H, uploaded: 0 })

function history(over: Partial<RecordHistory> = {}): RecordHistory {
  return {
    claim: { at: 10 * DAY, begin: c(5) },
    assignedAt: null,
    snatchStartedAt: 5 * DAY,
    atPeriodStart: c(1000),
    atAssignment: null,
    firstSeen: null,
    atEnd: c(1400),
    ...over,
  }
}
const hoursOf = (record: RecordHistory, p: typeof period & { startSnapshotLate?: boolean } = period) => {
  const gain = windowGain(record, p)
  return gain && { hours: gain.seedTimeGainSec / H, partial: gain.partial }
}

describe('counting window and baseline', () => {
  it('a claim older than the period counts from the start snapshot, not from its seed_time_begin', () => {
    expect(hoursOf(history())).toEqual({ hours: 400, partial: false })
  })

  it('a 站点 UID changed in the period counts from the first sync after the change (部分月份), not the start snapshot', () => {
    // The start snapshot held the old account's 100 h; the new account had 5,000 h when the UID was corrected.
    const corrected = history({ atPeriodStart: c(100), rebase: { at: 115 * DAY, ...c(5000) }, atEnd: c(5300) })
    expect(hoursOf(corrected)).toEqual({ hours: 300, partial: true })
    // A claim made after the change counts from its own noted counters (the new account's).
    expect(hoursOf({ ...corrected, claim: { at: 120 * DAY, begin: c(5100) } })).toEqual({ hours: 200, partial: false })
    // A change before the window: not this month's baseline (the reader gives only changes that count for it).
    expect(hoursOf({ ...corrected, rebase: { at: 90 * DAY, ...c(5000) } })).toEqual({ hours: 5200, partial: false })
    // After the end but before the end snapshot: the end counts the new account — nothing of it is known before.
    expect(hoursOf({ ...corrected, rebase: { at: 131 * DAY, ...c(5300) } })).toEqual({ hours: 0, partial: true })
  })

  it('a claim made in the period counts from the counters noted in the claim', () => {
    expect(hoursOf(history({ claim: { at: 110 * DAY, begin: c(1100) } }))).toEqual({ hours: 300, partial: false })
  })

  it('a claim noted with no counters (a source without seed_time_begin) still counts no more than the month', () => {
    expect(hoursOf(history({ claim: { at: 110 * DAY, begin: c(0) } }))).toEqual({ hours: 400, partial: false })
  })

  it('a claim noted with no counters on a record missing from the start snapshot counts from its first observation', () => {
    // An ingest push of an old snatch (1000 h) with a claim made now and no seed_time_begin: not its whole history.
    const pushed = history({
      claim: { at: 110 * DAY, begin: c(0) },
      atPeriodStart: null,
      firstSeen: { at: 110 * DAY + 60_000, ...c(1000) },
      atEnd: c(1010),
    })
    expect(hoursOf(pushed)).toEqual({ hours: 10, partial: true })
    // First seen before the claim (and not in the start snapshot: added mid-month): counted from there, whole.
    const seen = history({
      claim: { at: 110 * DAY, begin: c(0) },
      atPeriodStart: null,
      firstSeen: { at: 105 * DAY, ...c(900) },
      atEnd: c(1000),
    })
    expect(hoursOf(seen)).toEqual({ hours: 100, partial: false })
    // A snatch begun this month, before the claim: its 0 is what it had when claimed.
    const fresh = history({
      snatchStartedAt: 105 * DAY,
      claim: { at: 110 * DAY, begin: c(0) },
      atPeriodStart: null,
      firstSeen: { at: 111 * DAY, ...c(20) },
      atEnd: c(320),
    })
    expect(hoursOf(fresh)).toEqual({ hours: 320, partial: false })
    // Never observed: nothing known to have been seeded.
    expect(hoursOf(history({ claim: { at: 110 * DAY, begin: c(0) }, atPeriodStart: null, firstSeen: null, atEnd: null }))).toEqual({
      hours: 0,
      partial: true,
    })
  })

  it('a record first seen after the window start counts from that observation, marked partial', () => {
    expect(hoursOf(history({ atPeriodStart: null, firstSeen: { at: 115 * DAY, ...c(1200) } }))).toEqual({ hours: 200, partial: true })
  })

  it('a snatch begun inside the window counts from 0, whatever was observed', () => {
    const fresh = history({ snatchStartedAt: 105 * DAY, atPeriodStart: null, firstSeen: { at: 115 * DAY, ...c(50) }, atEnd: c(320) })
    expect(hoursOf(fresh)).toEqual({ hours: 320, partial: false })
  })

  it('an assignment made in the period counts from the first sync after it', () => {
    const assigned = history({ claim: null, assignedAt: 120 * DAY, atAssignment: c(1300) })
    expect(hoursOf(assigned)).toEqual({ hours: 100, partial: false })
    // An assignment from before the period is the start snapshot's.
    expect(hoursOf(history({ claim: null, assignedAt: 50 * DAY, atAssignment: c(700) }))).toEqual({ hours: 400, partial: false })
  })

  it('a tie that began after the period does not count in it', () => {
    expect(windowGain(history({ claim: { at: 131 * DAY, begin: c(1500) } }), period)).toBeNull()
  })

  it('a start snapshot taken after the 1st marks the month partial', () => {
    expect(hoursOf(history(), { ...period, startSnapshotLate: true })).toEqual({ hours: 400, partial: true })
  })

  it('a start snapshot taken after the 1st (a new install) does not cut what a claim made before it noted', () => {
    const late = { ...period, startSnapshotLate: true }
    // Claimed on day 110 at 1,100 h, first snapshot on day 127 at 1,380 h: the 300 h since the claim count.
    expect(hoursOf(history({ claim: { at: 110 * DAY, begin: c(1100) }, atPeriodStart: c(1380) }), late)).toEqual({
      hours: 300,
      partial: false,
    })
    // Counters the source did not note: from the snapshot, and the month is partial.
    expect(hoursOf(history({ claim: { at: 110 * DAY, begin: c(0) }, atPeriodStart: c(1380) }), late)).toEqual({ hours: 20, partial: true })
  })

  it('a gain is never negative (a re-created snatch), and a record never observed gains nothing', () => {
    expect(hoursOf(history({ atEnd: c(10) }))).toEqual({ hours: 0, partial: false })
    expect(hoursOf(history({ atPeriodStart: null, firstSeen: null }))).toEqual({ hours: 0, partial: true })
  })
})
