/**
 * What the site's own settings say about peers (NexusPHP `settings`, name → value): a peer that
 * stops announcing stays in `peers`, counted in `seeders`, for 1.3 × `main.anninterthree` (its
 * longest announce interval; `deadtime()` in include/functions.php). Read tolerantly: the table may be
 * missing (an older version, a fork) or not granted — the sync never fails over it.
 */
import type { NexusphpConnection } from './connection'

/** NexusPHP's own default of `main.anninterthree` when the row is absent (seconds). */
const DEFAULT_ANNINTERTHREE_SEC = 3600
/** NexusPHP keeps a silent peer this many longest announce intervals. */
const PEER_LIFE_FACTOR = 1.3

/** The site's peer lifetime in minutes, or null when its settings cannot be read. */
export async function readPeerLifetimeMinutes(connection: NexusphpConnection): Promise<number | null> {
  let rows: { value: string | null }[]
  try {
    rows = await connection.query<{ value: string | null }>("SELECT value FROM settings WHERE name = 'main.anninterthree'", [], 'settings')
  } catch {
    return null
  }
  const value = Number(rows[0]?.value)
  const seconds = rows.length && Number.isFinite(value) && value > 0 ? value : DEFAULT_ANNINTERTHREE_SEC
  return Math.floor(seconds * PEER_LIFE_FACTOR) / 60
}
