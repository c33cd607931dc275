/** The change step of the NexusPHP bench: 1% of the site's rows change between two syncs. */
import { Prng } from '../server/src/sources/demo/prng'
import { demoTags } from '../server/src/sources/demo/names'
import { BENCH_DATABASE, connect, officialTagNames, officialTeamIds, SEED, SITE } from './nexusphp-data'

export interface ChangeSummary {
  peersUpdated: number
  peersAdded: number
  peersDeleted: number
  snatchedUpdated: number
  snatchesFinished: number
  torrentsUpdated: number
  torrentsAdded: number
  usersUpdated: number
  usersAdded: number
  claimsAdded: number
  tagsAdded: number
  /** Rows touched in all (updated + added + deleted). */
  total: number
  /** For the checks after the incremental sync. */
  probe: {
    updatedPeerIds: number[]
    deletedPeerIds: number[]
    addedClaimIds: number[]
    addedTagTorrents: number[]
    finishedSnatchIds: number[]
  }
}

/**
 * What an hour on a busy site looks like for 1% of the rows: 1% of the peers and snatches announce
 * (last_action = NOW(), counters up), a few snatches finish, 0.1% of the peers stop (deleted, as
 * NexusPHP does) and as many start, 1% of the torrents get new seeder counts, a few uploads, users
 * and claims, and the official tag lands on a few torrents. Deterministic: the same rows every run.
 */
export async function changeOnePercent(): Promise<ChangeSummary> {
  const rng = new Prng(`${SEED}:change`)
  const conn = await connect(BENCH_DATABASE)
  const pick = (count: number, max: number) => {
    const set = new Set<number>()
    while (set.size < count) set.add(rng.int(1, max))
    return [...set].sort((a, b) => a - b)
  }
  try {
    const [metaRows] = (await conn.query("SELECT v FROM _bench_meta WHERE k = 'base_max_ids'")) as unknown as [{ v: string }[]]
    const base = JSON.parse(metaRows[0].v) as Record<string, number>
    const [members] = (await conn.query('SELECT uid FROM _bench_members ORDER BY uid')) as unknown as [{ uid: number }[]]

    const peerIds = pick(SITE.peers / 100, base.peers)
    const deleted = pick(SITE.peers / 1000, base.peers).filter((id) => !peerIds.includes(id))
    await conn.query(
      `UPDATE peers SET prev_action = last_action, last_action = NOW(), uploaded = uploaded + 1073741824 * (id % 7 + 1) WHERE id IN (${peerIds.join(',')})`,
    )
    await conn.query(
      `INSERT INTO _bench_deleted_peers SELECT * FROM peers WHERE id IN (${deleted.join(',')}); DELETE FROM peers WHERE id IN (${deleted.join(',')})`,
    )

    const snatchIds = pick(SITE.snatched / 100, base.snatched)
    const finishing = snatchIds.filter((_, i) => i % 20 === 0)
    await conn.query(
      `UPDATE snatched SET last_action = NOW(), uploaded = uploaded + 536870912 * (id % 5 + 1), seedtime = seedtime + 600 WHERE id IN (${snatchIds.join(',')})`,
    )
    await conn.query(
      `UPDATE snatched SET finished = 'yes', to_go = 0, completedat = IFNULL(completedat, NOW()), downloaded = downloaded + to_go WHERE id IN (${finishing.join(',')})`,
    )

    const torrentIds = pick(SITE.torrents / 100, base.torrents)
    await conn.query(
      `UPDATE torrents SET seeders = seeders + 1, times_completed = times_completed + 1, last_action = NOW() WHERE id IN (${torrentIds.join(',')})`,
    )
    const userIds = pick(SITE.siteUsers / 100, base.users)
    await conn.query(`UPDATE users SET last_access = NOW(), uploaded = uploaded + 1073741824 WHERE id IN (${userIds.join(',')})`)

    // New site users and uploads (one by a member), and peers starting on them (members' leeching).
    const usersAdded = 10
    await conn.query('INSERT INTO users (id, username, status, added, last_access, class, enabled) VALUES ?', [
      Array.from({ length: usersAdded }, (_, i) => [
        base.users + i + 1,
        `bench_new_user_${i + 1}`,
        'confirmed',
        new Date(),
        new Date(),
        1,
        'yes',
      ]),
    ])
    const torrentsAdded = 20
    await conn.query(`INSERT INTO torrents (id, info_hash, name, category, team, size, added, seeders, owner, last_action)
      SELECT ${base.torrents} + seq, UNHEX(SHA1(CONCAT('bench-new-', seq))), CONCAT('Bench.New.Upload.', seq, '.2026.1080p.WEB-DL-CedarHD'), 401, 1, 8589934592 + seq, NOW(), 1,
        ${members[0].uid}, NOW() FROM seq_1_to_${torrentsAdded}`)
    const starting = pick(deleted.length, members.length).map((m, i) => [members[m - 1].uid, base.torrents + (i % torrentsAdded) + 1])
    await conn.query(
      `INSERT INTO peers (id, torrent, peer_id, ip, port, to_go, seeder, started, last_action, prev_action, userid, agent) VALUES ?`,
      [
        starting.map(([uid, torrent], i) => [
          base.peers + i + 1,
          torrent,
          Buffer.from(`-qB5020-${String(uid).padStart(6, '0')}${String(i).padStart(6, '0')}`),
          '10.9.9.9',
          51413,
          1073741824,
          'no',
          new Date(),
          new Date(),
          new Date(),
          uid,
          'qBittorrent/5.0.2',
        ]),
      ],
    )
    await conn.query(`INSERT INTO snatched (torrentid, userid, ip, port, to_go, last_action, startdat, finished)
      SELECT torrent, userid, ip, port, to_go, last_action, started, 'no' FROM peers WHERE id > ${base.peers}`)

    // Members claim snatched official torrents they had not claimed; the official tag lands on a few torrents members have.
    const [candidates] =
      (await conn.query(`SELECT s.id, s.userid, s.torrentid, s.seedtime, s.uploaded FROM snatched s JOIN _bench_members m ON m.uid = s.userid
      LEFT JOIN claims c ON c.uid = s.userid AND c.torrent_id = s.torrentid
      WHERE s.id % 997 = 0 AND c.id IS NULL AND s.id <= ${base.snatched} ORDER BY s.id LIMIT 200`)) as unknown as [
        { id: number; userid: number; torrentid: number; seedtime: number; uploaded: number }[],
      ]
    const claimRows = candidates.map((s, i) => [
      base.claims + i + 1,
      s.userid,
      s.torrentid,
      s.id,
      s.seedtime,
      s.uploaded,
      new Date(),
      new Date(),
    ])
    if (claimRows.length)
      await conn.query(
        'INSERT INTO claims (id, uid, torrent_id, snatched_id, seed_time_begin, uploaded_begin, created_at, updated_at) VALUES ?',
        [claimRows],
      )
    const officialTag = demoTags.indexOf(officialTagNames[0]) + 1
    const [untagged] = (await conn.query(`SELECT DISTINCT s.torrentid AS id FROM snatched s JOIN _bench_members m ON m.uid = s.userid
      JOIN torrents t ON t.id = s.torrentid AND t.team NOT IN (${officialTeamIds().join(',')})
      LEFT JOIN torrent_tags g ON g.torrent_id = s.torrentid AND g.tag_id = ${officialTag}
      WHERE s.id % 1009 = 0 AND g.id IS NULL AND s.id <= ${base.snatched} ORDER BY s.torrentid LIMIT 50`)) as unknown as [{ id: number }[]]
    const tagRows = untagged.map((t, i) => [base.torrent_tags + i + 1, t.id, officialTag, 0, new Date(), new Date()])
    if (tagRows.length)
      await conn.query('INSERT INTO torrent_tags (id, torrent_id, tag_id, priority, created_at, updated_at) VALUES ?', [tagRows])

    const summary = {
      peersUpdated: peerIds.length,
      peersAdded: starting.length,
      peersDeleted: deleted.length,
      snatchedUpdated: snatchIds.length + starting.length,
      snatchesFinished: finishing.length,
      torrentsUpdated: torrentIds.length,
      torrentsAdded,
      usersUpdated: userIds.length,
      usersAdded,
      claimsAdded: claimRows.length,
      tagsAdded: tagRows.length,
    }
    return {
      ...summary,
      total:
        summary.peersUpdated +
        summary.peersAdded +
        summary.peersDeleted +
        summary.snatchedUpdated +
        summary.torrentsUpdated +
        summary.torrentsAdded +
        summary.usersUpdated +
        summary.usersAdded +
        summary.claimsAdded +
        summary.tagsAdded,
      probe: {
        updatedPeerIds: peerIds,
        deletedPeerIds: deleted,
        addedClaimIds: claimRows.map((c) => c[0] as number),
        addedTagTorrents: untagged.map((t) => t.id),
        finishedSnatchIds: finishing,
      },
    }
  } finally {
    await conn.end()
  }
}
