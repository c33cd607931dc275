/**
 * Generates the NexusPHP bench site: (re)creates its database from NexusPHP's schema and fills every
 * table from the plan (nexusphp-site-plan.ts). One file: a column list and row generator per table,
 * read top to bottom, in the order the tables reference one another.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Prng } from '../server/src/sources/demo/prng'
import { clientAgents, demoCategories, demoTags, demoTeams, torrentName, username } from '../server/src/sources/demo/names'
import { BENCH_DATABASE, BENCH_SHAPE, connect, GENERATOR_VERSION, SEED, SITE } from './nexusphp-data'
import { ago, bytes, load, NULL, type LoadColumn, type LoadMethod } from './nexusphp-load'
import { DAY, HOUR, kinds, planSite, YEAR } from './nexusphp-site-plan'

const schemaFile = join(
  import.meta.dirname,
  '..',
  'server',
  'src',
  'sources',
  'nexusphp',
  'testing',
  BENCH_SHAPE === 'innodb' ? 'nexusphp-schema.sql' : 'nexusphp-schema-v16.sql',
)
const agentPrefixes = ['-qB4670-', '-qB5020-', '-TR4060-', '-DE211s-', '-UT360S-', '-LT20A0-']

export interface GenerateOutcome {
  sec: number
  method: LoadMethod
  rows: Record<string, number>
  perTableSec: Record<string, number>
}

/** (Re)creates the benchmark database and fills it. */
export async function generateBenchSite(options: { method: LoadMethod; log: (line: string) => void }): Promise<GenerateOutcome> {
  const { log, method } = options
  const started = performance.now()
  const admin = await connect()
  await admin.query(
    `DROP DATABASE IF EXISTS \`${BENCH_DATABASE}\`; CREATE DATABASE \`${BENCH_DATABASE}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
  )
  await admin.end()
  const conn = await connect(BENCH_DATABASE)
  try {
    await conn.query(readFileSync(schemaFile, 'utf8'))
    await conn.query(`CREATE TABLE _bench_meta (k varchar(64) NOT NULL PRIMARY KEY, v text NOT NULL) ENGINE=InnoDB;
      CREATE TABLE _bench_members (uid int unsigned NOT NULL PRIMARY KEY) ENGINE=InnoDB;
      CREATE TABLE _bench_deleted_peers LIKE peers`)
    await conn.query('SET SESSION unique_checks = 0, foreign_key_checks = 0')
    await conn.query('SET @base = NOW()')

    let mark = performance.now()
    const site = planSite()
    log(`  planned the site in ${((performance.now() - mark) / 1000).toFixed(1)} s (${site.cSnatch.length.toLocaleString('en')} claims)`)
    const rows: Record<string, number> = {}
    const perTableSec: Record<string, number> = {}
    const timed = async (table: string, columns: readonly LoadColumn[], data: Iterable<string[]>) => {
      mark = performance.now()
      rows[table] = await load(conn, method, table, columns, data)
      perTableSec[table] = (performance.now() - mark) / 1000
      log(`  ${table}: ${rows[table].toLocaleString('en')} rows in ${perTableSec[table].toFixed(1)} s`)
    }
    const rng = (table: string) => new Prng(`${SEED}:${table}`)

    await timed(
      'teams',
      [
        ['id', 'n'],
        ['name', 's'],
        ['sort_index', 'n'],
      ],
      demoTeams.map((t, i) => [String(i + 1), t.name, String(i)]),
    )
    await timed(
      'categories',
      [
        ['id', 'n'],
        ['mode', 'n'],
        ['name', 's'],
        ['sort_index', 'n'],
      ],
      demoCategories.map((c, i) => [String(401 + i), '4', c.name, String(i)]),
    )
    await timed(
      'tags',
      [
        ['id', 'n'],
        ['name', 's'],
        ['color', 's'],
        ['priority', 'n'],
        ['created_at', 'ago'],
        ['updated_at', 'ago'],
      ],
      demoTags.map((name, i) => [
        String(i + 1),
        name,
        `#${(0x335577 + i * 0x101010).toString(16)}`,
        String(demoTags.length - i),
        String(2 * YEAR),
        String(YEAR),
      ]),
    )

    // users: unique names regardless of case
    const r = rng('users')
    const seen = new Set<string>()
    const names: string[] = []
    for (let uid = 1; uid <= SITE.siteUsers; uid++) {
      let name = username(r).slice(0, 36)
      while (seen.has(name.toLowerCase())) name = `${name.slice(0, 32)}${r.int(1, 9999)}`
      seen.add(name.toLowerCase())
      names.push(name)
    }
    await timed(
      'users',
      [
        ['id', 'n'],
        ['username', 's'],
        ['passhash', 's'],
        ['email', 's'],
        ['status', 's'],
        ['added', 'ago'],
        ['last_login', 'ago'],
        ['last_access', 'ago'],
        ['class', 'n'],
        ['uploaded', 'n'],
        ['downloaded', 'n'],
        ['enabled', 's'],
        ['passkey', 's'],
      ],
      (function* () {
        for (let uid = 1; uid <= SITE.siteUsers; uid++) {
          const member = site.isMember[uid] === 1
          const added = r.int(30 * DAY, 6 * YEAR)
          const access = member ? r.int(60, 3 * DAY) : r.chance(0.02) ? -1 : Math.min(added, r.int(60, YEAR))
          yield [
            String(uid),
            names[uid - 1],
            r.hex(16),
            `u${uid}@example.org`,
            r.chance(0.99) ? 'confirmed' : 'pending',
            ago(added),
            ago(access < 0 ? -1 : access + r.int(0, DAY)),
            ago(access),
            String(r.pick([1, 1, 2, 3, 4, 5, 6, 7])),
            String(Math.round(r.logNormal(2e12, 1.5))),
            String(Math.round(r.logNormal(1e12, 1.5))),
            r.chance(member ? 0.99 : 0.97) ? 'yes' : 'no',
            r.hex(16),
          ]
        }
      })(),
    )

    const tr = rng('torrents')
    await timed(
      'torrents',
      [
        ['id', 'n'],
        ['info_hash', 'x'],
        ['name', 's'],
        ['filename', 's'],
        ['small_descr', 's'],
        ['category', 'n'],
        ['team', 'n'],
        ['size', 'n'],
        ['added', 'ago'],
        ['numfiles', 'n'],
        ['times_completed', 'n'],
        ['leechers', 'n'],
        ['seeders', 'n'],
        ['last_action', 'ago'],
        ['visible', 's'],
        ['banned', 's'],
        ['owner', 'n'],
      ],
      (function* () {
        for (let i = 0; i < SITE.torrents; i++) {
          const team = site.tTeam[i] ? demoTeams[site.tTeam[i] - 1].name : null
          const year = 2026 - Math.floor(site.tAddedAgo[i] / YEAR) - (tr.chance(0.4) ? tr.int(0, 30) : 0)
          const name = torrentName(tr, kinds[site.tKind[i]], year, team).slice(0, 255)
          yield [
            String(i + 1),
            tr.hex(20),
            name,
            `${name.slice(0, 240)}.torrent`,
            '',
            String(site.tCategory[i]),
            String(site.tTeam[i]),
            bytes(site.tSizeGiB[i]),
            ago(site.tAddedAgo[i]),
            String(tr.int(1, 120)),
            String(site.tCompleted[i] + tr.int(0, 20)),
            String(site.tLeechers[i]),
            String(site.tSeeders[i]),
            ago(Math.min(site.tAddedAgo[i], tr.int(60, 30 * DAY))),
            tr.chance(0.995) ? 'yes' : 'no',
            tr.chance(0.002) ? 'yes' : 'no',
            String(site.tOwner[i]),
          ]
        }
      })(),
    )

    await timed(
      'torrent_tags',
      [
        ['id', 'n'],
        ['torrent_id', 'n'],
        ['tag_id', 'n'],
        ['priority', 'n'],
        ['created_at', 'ago'],
        ['updated_at', 'ago'],
      ],
      (function* () {
        let id = 0
        for (let i = 0; i < SITE.torrents; i++) {
          for (const tag of [site.tTag1[i], site.tTag2[i]]) {
            if (tag) yield [String(++id), String(i + 1), String(tag), '0', ago(site.tAddedAgo[i]), ago(site.tAddedAgo[i])]
          }
        }
      })(),
    )

    // snatches: counters consistent with the peer (if any) and the torrent's size
    const sr = rng('snatched')
    const seedTime = new Int32Array(SITE.snatched)
    const uploadedGiB = new Float64Array(SITE.snatched)
    await timed(
      'snatched',
      [
        ['id', 'n'],
        ['torrentid', 'n'],
        ['userid', 'n'],
        ['ip', 's'],
        ['port', 'n'],
        ['uploaded', 'n'],
        ['downloaded', 'n'],
        ['to_go', 'n'],
        ['seedtime', 'n'],
        ['leechtime', 'n'],
        ['last_action', 'ago'],
        ['startdat', 'ago'],
        ['completedat', 'ago'],
        ['finished', 's'],
      ],
      (function* () {
        for (let i = 0; i < SITE.snatched; i++) {
          const size = site.tSizeGiB[site.sTorrent[i] - 1]
          const start = site.sStartAgo[i]
          const last = site.sLastAgo[i]
          const lastOrStart = last < 0 ? start : last
          const finished = site.sFinished[i] === 1
          const leech = Math.max(1, Math.min(start - lastOrStart, sr.int(60, 6 * HOUR)))
          const completed = finished ? start - leech : -1
          const seed = finished ? Math.floor(Math.max(0, completed - lastOrStart) * sr.next() ** 0.5) : 0
          const left = finished ? 0 : size * (0.05 + 0.9 * sr.next())
          seedTime[i] = seed
          uploadedGiB[i] = finished ? size * sr.logNormal(0.6, 1.2) : size * 0.1 * sr.next()
          yield [
            String(i + 1),
            String(site.sTorrent[i]),
            String(site.sUser[i]),
            `10.${sr.int(0, 255)}.${sr.int(0, 255)}.${sr.int(1, 254)}`,
            String(sr.int(10_000, 65_000)),
            bytes(uploadedGiB[i]),
            bytes(size - left),
            bytes(left),
            String(seed),
            String(leech),
            ago(last),
            ago(start),
            ago(completed),
            finished ? 'yes' : 'no',
          ]
        }
      })(),
    )

    const pr = rng('peers')
    await timed(
      'peers',
      [
        ['id', 'n'],
        ['torrent', 'n'],
        ['peer_id', 'x'],
        ['ip', 's'],
        ['port', 'n'],
        ['uploaded', 'n'],
        ['downloaded', 'n'],
        ['to_go', 'n'],
        ['seeder', 's'],
        ['started', 'ago'],
        ['last_action', 'ago'],
        ['prev_action', 'ago'],
        ['connectable', 's'],
        ['userid', 'n'],
        ['agent', 's'],
        ['finishedat', 'epochAgo'],
      ],
      (function* () {
        for (let p = 0; p < SITE.peers; p++) {
          const i = site.pSnatch[p]
          const size = site.tSizeGiB[site.sTorrent[i] - 1]
          const agent = pr.int(0, clientAgents.length - 1)
          // 8-byte client prefix + the user id + 8 random bytes: unique per (torrent, peer_id)
          const peerId = Buffer.from(agentPrefixes[agent]).toString('hex') + site.sUser[i].toString(16).padStart(8, '0') + pr.hex(8)
          const last = site.pLastAgo[p]
          const started = Math.max(last, Math.min(site.sStartAgo[i], last + pr.int(60, 40 * DAY)))
          const seeder = site.pSeeder[p] === 1
          const left = seeder ? 0 : size * (0.05 + 0.9 * pr.next())
          yield [
            String(p + 1),
            String(site.sTorrent[i]),
            peerId,
            `10.${pr.int(0, 255)}.${pr.int(0, 255)}.${pr.int(1, 254)}`,
            String(pr.int(10_000, 65_000)),
            bytes(uploadedGiB[i] * pr.next()),
            bytes(seeder ? 0 : size - left),
            bytes(left),
            seeder ? 'yes' : 'no',
            ago(started),
            ago(last),
            ago(Math.min(started, last + pr.int(600, 1800))),
            pr.chance(0.85) ? 'yes' : 'no',
            String(site.sUser[i]),
            clientAgents[agent],
            seeder && pr.chance(0.6) ? ago(Math.min(site.sStartAgo[i], started + pr.int(60, HOUR))) : NULL,
          ]
        }
      })(),
    )

    const cr = rng('claims')
    await timed(
      'claims',
      [
        ['id', 'n'],
        ['uid', 'n'],
        ['torrent_id', 'n'],
        ['snatched_id', 'n'],
        ['seed_time_begin', 'n'],
        ['uploaded_begin', 'n'],
        ['last_settle_at', 'ago'],
        ['created_at', 'ago'],
        ['updated_at', 'ago'],
      ],
      (function* () {
        for (let c = 0; c < site.cSnatch.length; c++) {
          const i = site.cSnatch[c]
          const created = Math.floor(Math.min(site.sStartAgo[i], 200 * DAY) * cr.next())
          const settled = cr.chance(0.7) ? Math.min(created, cr.int(0, 31 * DAY)) : -1
          yield [
            String(c + 1),
            String(site.sUser[i]),
            String(site.sTorrent[i]),
            String(i + 1),
            String(Math.floor(seedTime[i] * 0.8 * cr.next())),
            bytes(uploadedGiB[i] * 0.8 * cr.next()),
            ago(settled),
            ago(created),
            ago(settled < 0 ? created : settled),
          ]
        }
      })(),
    )

    await load(
      conn,
      'infile',
      '_bench_members',
      [['uid', 'n']],
      Array.from(site.memberUids, (uid) => [String(uid)]),
    )
    const [[{ base }]] = (await conn.query('SELECT @base AS base')) as unknown as [[{ base: string }]]
    const sec = (performance.now() - started) / 1000
    const meta: Record<string, string> = {
      version: String(GENERATOR_VERSION),
      generated_at: base,
      shifted_to: base,
      method,
      generation_sec: sec.toFixed(1),
      rows: JSON.stringify(rows),
      per_table_sec: JSON.stringify(perTableSec),
      base_max_ids: JSON.stringify({
        users: SITE.siteUsers,
        torrents: SITE.torrents,
        torrent_tags: rows.torrent_tags,
        peers: SITE.peers,
        snatched: SITE.snatched,
        claims: rows.claims,
      }),
    }
    await conn.query('INSERT INTO _bench_meta (k, v) VALUES ?', [Object.entries(meta)])
    await conn.query('ANALYZE TABLE users, torrents, torrent_tags, peers, snatched, claims')
    return { sec, method, rows, perTableSec }
  } finally {
    await conn.end()
  }
}
