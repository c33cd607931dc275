/** The ingest key check of POST /ingest/snapshot: pushing trackers hold a key, not a session. */
import { createHash, timingSafeEqual } from 'node:crypto'

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest()

/** Constant time whatever the key: every configured key is compared, by digest (equal lengths). */
export function ingestKeyMatches(given: string, keys: readonly string[]): boolean {
  const candidate = digest(given)
  let match = false
  for (const key of keys) match = timingSafeEqual(candidate, digest(key)) || match
  return match
}
