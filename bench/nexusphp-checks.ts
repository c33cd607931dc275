/** The checks after the NexusPHP bench's incremental sync: the mirror holds what changed at the source. */
import { sql } from 'kysely'
import type { AppDatabase } from '../server/src/db/database'
import type { ChangeSummary } from './nexusphp-change'
import { BENCH_DATABASE, connect, SITE } from './nexusphp-data'
import type { NexusphpBench } from './nexusphp-report'

export async function checkIncremental(database: AppDatabase, change: ChangeSummary): Promise<NexusphpBench['checks']> {
  const { db } = database
  const conn = await connect(BENCH_DATABASE)
  const checks: NexusphpBench['checks'] = []
  try {
    const q = async <T>(text: string) => ((await conn.query(text)) as unknown as [T[]])[0]
    const memberPeers = await q<{ id: number; uploaded: number }>(
      `SELECT p.id, p.uploaded FROM peers p JOIN _bench_members m ON m.uid = p.userid WHERE p.id IN (${change.probe.updatedPeerIds.join(',')})`,
    )
    const mirrored = new Map(
      (
        await db
          .selectFrom('site_peers')
          .select(['id', 'uploaded'])
          .where(
            'id',
            'in',
            memberPeers.map((p) => p.id),
          )
          .execute()
      ).map((r) => [r.id, Number(r.uploaded)]),
    )
    const same = memberPeers.filter((p) => mirrored.get(p.id) === Number(p.uploaded)).length
    checks.push({
      name: "updated peers (members')",
      ok: same === memberPeers.length,
      detail: `${same} of ${memberPeers.length} carry the new counters`,
    })
    // Stopped peers: the connector re-checks the active ones every sync; stale ones wait for its rolling check.
    const stopped = await q<{ id: number; stale: number }>(
      `SELECT p.id, p.last_action < NOW() - INTERVAL 65 MINUTE AS stale FROM _bench_deleted_peers p JOIN _bench_members m ON m.uid = p.userid`,
    )
    const stillThere = new Set(
      (
        await db
          .selectFrom('site_peers')
          .select('id')
          .where('id', 'in', stopped.length ? stopped.map((p) => p.id) : [0])
          .execute()
      ).map((r) => r.id),
    )
    const activeStopped = stopped.filter((p) => !Number(p.stale))
    const staleLeft = stopped.filter((p) => Number(p.stale) && stillThere.has(p.id)).length
    const activeLeft = activeStopped.filter((p) => stillThere.has(p.id)).length
    checks.push({
      name: "stopped active peers (members')",
      ok: activeLeft === 0,
      detail: `${activeStopped.length - activeLeft} of ${activeStopped.length} gone from the mirror`,
    })
    checks.push({
      name: "stopped stale peers (members')",
      ok: true,
      detail: `${staleLeft} of ${stopped.length - activeStopped.length} still mirrored; stale, so no effect on statuses`,
    })
    const newPeers = await q<{ n: number }>(`SELECT COUNT(*) AS n FROM peers WHERE id > ${SITE.peers}`)
    const newMirrored = Number(
      (await sql<{ n: number }>`select count(*) as n from site_peers where id > ${SITE.peers}`.execute(db)).rows[0].n,
    )
    checks.push({
      name: 'started peers',
      ok: newMirrored === Number(newPeers[0].n),
      detail: `${newMirrored} of ${newPeers[0].n} in the mirror`,
    })
    const finishing = await q<{ id: number }>(
      `SELECT s.id FROM snatched s JOIN _bench_members m ON m.uid = s.userid WHERE s.id IN (${change.probe.finishedSnatchIds.join(',')})`,
    )
    const finished = finishing.length
      ? await db
          .selectFrom('site_snatched')
          .select('id')
          .where(
            'id',
            'in',
            finishing.map((s) => s.id),
          )
          .where('finished', '=', 1)
          .execute()
      : []
    checks.push({
      name: "finished snatches (members')",
      ok: finished.length === finishing.length,
      detail: `${finished.length} of ${finishing.length} finished in the mirror`,
    })
    const claims = change.probe.addedClaimIds.length
      ? await db.selectFrom('site_claims').select('id').where('id', 'in', change.probe.addedClaimIds).execute()
      : []
    checks.push({
      name: 'new claims',
      ok: claims.length === change.probe.addedClaimIds.length,
      detail: `${claims.length} of ${change.probe.addedClaimIds.length} in the mirror`,
    })
    const tagged = change.probe.addedTagTorrents.length
      ? await db
          .selectFrom('torrent_labels')
          .select('torrent_id')
          .where('torrent_id', 'in', change.probe.addedTagTorrents)
          .where('seed_type', '=', 1)
          .execute()
      : []
    const bigEnough = await q<{ id: number }>(
      `SELECT id FROM torrents WHERE size >= 1073741824 AND id IN (${change.probe.addedTagTorrents.join(',') || 0})`,
    )
    checks.push({
      name: 'newly official (tag)',
      ok: tagged.length === bigEnough.length,
      detail: `${tagged.length} of ${bigEnough.length} (≥ 1 GiB) now official`,
    })
    for (const [table, source, col] of [
      ['site_peers', 'peers', 'userid'],
      ['site_snatched', 'snatched', 'userid'],
      ['site_claims', 'claims', 'uid'],
    ] as const) {
      const n = Number((await q<{ n: number }>(`SELECT COUNT(*) AS n FROM ${source} x JOIN _bench_members m ON m.uid = x.${col}`))[0].n)
      const mirror = Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0].n)
      const expected = n + (source === 'peers' ? staleLeft : 0)
      checks.push({
        name: `${source}: members' rows`,
        ok: mirror === expected,
        detail: `${mirror.toLocaleString('en')} in the mirror, ${n.toLocaleString('en')} at the source${source === 'peers' && staleLeft ? ` + ${staleLeft} stale stopped` : ''}`,
      })
    }
  } finally {
    await conn.end()
  }
  return checks
}
