/**
 * Rows as a tracker pushes them to /ingest/snapshot (api.md), for tests: each builder fills what a push must carry
 * and takes what a scenario turns. Times are epoch ms here and ISO text in the row, as pushed.
 */
const GiB = 1024 ** 3

export const iso = (ms: number): string => new Date(ms).toISOString()

/** A 40-digit hex info hash (or peer_id) made from a number. */
export const hexId = (n: number): string => n.toString(16).padStart(40, '0')

export function pushedTorrent(id: number, added: number, more: Record<string, unknown> = {}) {
  return { id, info_hash: hexId(id), name: `Torrent ${id} 1080p`, size: 8 * GiB, team: 1, added: iso(added), ...more }
}

export function pushedPeer(p: {
  id: number
  torrent: number
  userid: number
  started: number
  lastAction: number
  peerId?: string
  uploaded?: number
}) {
  return {
    id: p.id,
    torrent: p.torrent,
    userid: p.userid,
    peer_id: p.peerId ?? hexId(1000 + p.id),
    seeder: 'yes',
    started: iso(p.started),
    last_action: iso(p.lastAction),
    ...(p.uploaded === undefined ? {} : { uploaded: p.uploaded }),
  }
}

/** A claim as NexusPHP's claims table holds it; updated_at moves when the site settles it. */
export function pushedClaim(p: { id: number; uid: number; torrent: number; createdAt: number; updatedAt?: number }) {
  return { id: p.id, uid: p.uid, torrent_id: p.torrent, created_at: iso(p.createdAt), updated_at: iso(p.updatedAt ?? p.createdAt) }
}
