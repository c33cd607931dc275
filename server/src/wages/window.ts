/**
 * The counting window and baseline of one record in a period, pure.
 *
 * The window runs from the later of the period start and the moment the tie began — the earlier of the
 * claim's creation and the assignment: a torrent assigned since July and claimed on the 21st was kept all
 * month — to the period end. The baseline is the record's counters at the window start:
 * - a snatch that itself began inside the window starts from 0;
 * - a claim that began the tie inside the period starts from the snatch's counters when claimed (NexusPHP's
 *   `seed_time_begin` / `uploaded_begin` from before the site's settlement on the 1st resets them,
 *   migration 0025) — never below the start snapshot, unless that was taken after the 1st (a new
 *   install: it may postdate the claim) or belongs to an older snatch (the site re-created it after the
 *   1st: NexusPHP noted the new one's); with none noted and no start snapshot, from the first observation;
 * - an assignment that began the tie inside the period starts from the counters of the first sync after it;
 * - a member whose 站点 UID changed inside the window (after the tie began) starts from the counters of the first
 *   sync after the change, marked partial: before it the record counted another account (or none);
 * - otherwise the period's start snapshot; a record missing from it (the server first saw it later:
 *   a member added mid-month, a new install, a late first sync) starts from its first observation
 *   and is marked partial (部分月份) — never from 0, which would pay its whole history. So is a
 *   record counted from a start snapshot taken after the 1st (the server's first days, or down on the 1st).
 */

export interface Counters {
  seedTimeSec: number
  uploaded: number
}

export interface RecordHistory {
  /** Claim creation (epoch ms) and the counters NexusPHP noted then; null = not claimed. */
  claim: { at: number; begin: Counters } | null
  /** Assignment time (epoch ms), null = not assigned. */
  assignedAt: number | null
  /** The snatch's start (`startdat`), null = no snatch or its start unknown (counted as older than the window). */
  snatchStartedAt: number | null
  /** Counters in the period's start snapshot; null = the record was not in it. */
  atPeriodStart: Counters | null
  /** Counters at the first sync after the assignment at `assignedAt`. */
  atAssignment: Counters | null
  /** The record's first observation by the server. */
  firstSeen: (Counters & { at: number }) | null
  /** Counters at the period end (end snapshot, or the live ones for the running month); null = gone by then. */
  atEnd: Counters | null
  /**
   * The latest 站点 UID change that counts for the period (the reader's rebaseCounts: inside it, or after its end but
   * before its end snapshot) and the counters of the first sync after it; absent = none.
   */
  rebase?: (Counters & { at: number }) | null
}

export interface WindowGain {
  seedTimeGainSec: number
  uploadedGain: number
  /** Counted from a first observation made after the window began. */
  partial: boolean
  /** When the tie began (orders the keepers). */
  tieAt: number | null
}

const ZERO: Counters = { seedTimeSec: 0, uploaded: 0 }

/**
 * Counters only grow, so a claim's noted counters are never below the month's start: a source that
 * sends no `seed_time_begin` (0) must not turn a mid-month claim into the snatch's whole history.
 */
const noLower = (begin: Counters, floor: Counters | null): Counters =>
  floor ? { seedTimeSec: Math.max(begin.seedTimeSec, floor.seedTimeSec), uploaded: Math.max(begin.uploaded, floor.uploaded) } : begin

/** The record's gains inside its window, or null when the tie began only after the period. */
export function windowGain(
  record: RecordHistory,
  period: { startMs: number; endMs: number; startSnapshotLate?: boolean; endSnapshotLate?: boolean },
): WindowGain | null {
  const claimAt = record.claim?.at ?? null
  const tieAt = claimAt !== null && record.assignedAt !== null ? Math.min(claimAt, record.assignedAt) : (claimAt ?? record.assignedAt)
  if (tieAt !== null && tieAt >= period.endMs) return null
  const claimBegan = record.claim !== null && record.claim.at === tieAt
  const windowStart = Math.max(period.startMs, tieAt ?? 0)
  let base: Counters
  let partial = false
  const rebase = record.rebase && record.rebase.at > windowStart ? record.rebase : null
  // The start of the snatch the end counters belong to. One the site created after the period (read from the mirror as
  // it is now, when a compute runs weeks later) is not it: the month's counters are the old snatch's.
  const snatchStartedAt = record.snatchStartedAt !== null && record.snatchStartedAt < period.endMs ? record.snatchStartedAt : null
  if (snatchStartedAt !== null && snatchStartedAt >= windowStart) base = ZERO
  else if (rebase) {
    // The tie began before the change (else windowStart would be after it): the new account counts from the change.
    base = rebase
    partial = true
  } else if (record.claim && claimBegan && record.claim.at > period.startMs) {
    // A start snapshot taken late (a new install) may postdate the claim: it floors only counters the source did
    // not note (0), and then what was seeded between the claim and the snapshot is unknown (部分月份).
    const noted = record.claim.begin.seedTimeSec > 0 || record.claim.begin.uploaded > 0
    if (period.startSnapshotLate && noted) base = record.claim.begin
    else if (!noted && !record.atPeriodStart && !(snatchStartedAt !== null && snatchStartedAt >= period.startMs)) {
      // No noted counters and no start snapshot, on a snatch older than the month (a source without seed_time_begin,
      // a record first seen this month): from the first observation — partial where that came after the claim —
      // never from 0, its whole history. (A snatch begun this month had nothing before it: its 0 is its begins.)
      const seen = record.firstSeen
      base = seen ?? record.atEnd ?? ZERO
      partial = !seen || seen.at > record.claim.at
    } else {
      // A snatch the site re-created after the 1st: the start snapshot holds the old one's counters.
      const snapshotOfOlderSnatch = snatchStartedAt !== null && snatchStartedAt > period.startMs
      base = snapshotOfOlderSnatch ? record.claim.begin : noLower(record.claim.begin, record.atPeriodStart)
      partial = period.startSnapshotLate === true && record.atPeriodStart !== null
    }
  } else if (!claimBegan && record.assignedAt !== null && record.assignedAt > period.startMs && record.atAssignment)
    base = record.atAssignment
  else if (record.atPeriodStart) {
    base = record.atPeriodStart
    // The month's first snapshot is later than its 1st (a new install, the server down on the 1st).
    partial = period.startSnapshotLate === true && windowStart === period.startMs
  } else if (record.firstSeen) {
    base = record.firstSeen
    partial = record.firstSeen.at > windowStart
  } else {
    // Never observed (no sync since it appeared): nothing is known to have been seeded in the window.
    base = record.atEnd ?? ZERO
    partial = true
  }
  const end = record.atEnd ?? base
  return {
    // Counters can go back (a re-created snatch): a gain is never negative.
    seedTimeGainSec: Math.max(0, end.seedTimeSec - base.seedTimeSec),
    uploadedGain: Math.max(0, end.uploaded - base.uploaded),
    // The end counters read days after the month (the server down on the 1st): not the month's either.
    partial: partial || period.endSnapshotLate === true,
    tieAt,
  }
}
