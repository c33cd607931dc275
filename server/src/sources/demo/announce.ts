/**
 * How often a demo peer announces: NexusPHP's intervals with its default settings (announce.php picks by
 * the torrent's age — `announce_interval` 30 min, `annintertwo` 45 min from `annintertwoage` 7 days,
 * `anninterthree` 60 min from `anninterthreeage` 30 days). A 10-minute sync of a real site sees a sixth
 * to a third of its peers announce, not all of them; the demo does the same.
 */
import { type RawBuilder, sql } from 'kysely'
import { int } from '../../db/sql-fragments'

const DAY_MS = 86_400_000
const TWO_AGE_MS = 7 * DAY_MS
const THREE_AGE_MS = 30 * DAY_MS
const INTERVAL_MS = 30 * 60_000
const TWO_MS = 45 * 60_000
const THREE_MS = 60 * 60_000

/** The shortest interval: a peer that announced less than this ago is not due at any torrent age. */
export const SHORTEST_ANNOUNCE_MS = INTERVAL_MS

export function announceIntervalMs(added: number, now: number): number {
  const age = now - added
  return age >= THREE_AGE_MS ? THREE_MS : age >= TWO_AGE_MS ? TWO_MS : INTERVAL_MS
}

/** The same in SQL, over a torrent's `added` (ms). */
export function announceIntervalSql(added: RawBuilder<unknown>, now: number): RawBuilder<number> {
  return sql<number>`case when ${added} <= ${int(now - THREE_AGE_MS)} then ${sql.lit(THREE_MS)}
    when ${added} <= ${int(now - TWO_AGE_MS)} then ${sql.lit(TWO_MS)} else ${sql.lit(INTERVAL_MS)} end`
}
