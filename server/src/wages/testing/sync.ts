/** The wage tests' sync: what a site's sync does that the wages depend on. */
import type { AppDatabase } from '../../db/database'
import { derive } from '../../derive'
import { takeDailySnapshot } from '../../snapshots/write'

/** One sync at `now`: the derivation, then the snapshot step (first observations, the day's snapshot in `timeZone`). */
export async function syncAt(database: AppDatabase, now: number, timeZone: string): Promise<void> {
  await derive(database, { now })
  await takeDailySnapshot(database, { now, timeZone })
}
