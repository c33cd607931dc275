/**
 * The NexusPHP benchmark database (issue 6): NexusPHP's tables (server/src/sources/nexusphp/testing/
 * nexusphp-schema-v16.sql, or nexusphp-schema.sql: BENCH_SHAPE) in a MariaDB database of their own, filled with a deterministic site —
 * 20,000 users of whom 2,000 are the team's members, 200,000 torrents (12 release teams, 3 of them
 * official, and an official tag), 1,000,000 snatches (85% the members'), 300,000 peers (a subset of
 * the snatches: seeders and leechers, recent, near the activity window and stale) and claims.
 *
 * DATETIMEs are written relative to the database's own NOW() at generation time (`@base`); a reused
 * database is shifted forward to the current NOW() before every run (`prepareBenchSite`), so a peer
 * that was active at generation is active again. Rows the change step adds are removed, rows it
 * deleted put back. Loaded with LOAD DATA LOCAL INFILE from an in-memory stream (mysql2's
 * `infileStreamFactory`); `--load insert` uses multi-row INSERTs instead (for comparison).
 *
 * Bookkeeping lives in two extra tables the connector never reads: `_bench_meta` and `_bench_members`.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import mysql from 'mysql2/promise'
import { Prng, WeightedPicker } from '../server/src/sources/demo/prng'
import {
  clientAgents,
  demoCategories,
  demoTags,
  demoTeams,
  NO_TEAM_WEIGHT,
  officialDemoTags,
  sizeProfile,
  torrentName,
  username,
  type TorrentKind,
} from '../server/src/sources/demo/names'

export const SITE = { siteUsers: 20_000, members: 2_000, torrents: 200_000, snatched: 1_000_000, peers: 300_000 } as const
/** Share of the snatches that are the members' (the part of the site the sync is about). */
const MEMBER_SNATCH_SHARE = 0.85
/**
 * The shape of the bench site (NEXUSPHP_BENCH_SHAPE): 'v16' (default), a v1.6 install — MyISAM tables,
 * MEMORY peers, where a long read makes the tracker wait — or 'innodb', a migrated install. Each has its own database.
 */
export const BENCH_SHAPE: 'v16' | 'innodb' = process.env.NEXUSPHP_BENCH_SHAPE === 'innodb' ? 'innodb' : 'v16'
export const BENCH_DATABASE = BENCH_SHAPE === 'innodb' ? 'seeding_bench_nexusphp' : 'seeding_bench_nexusphp_v16'
/** Bumped when the generated data changes: an older database is rebuilt. */
const GENERATOR_VERSION = 2
const SEED = 'nexusphp-bench'

export const officialTeamNames = demoTeams.filter((t) => t.official).map((t) => t.name)
export const officialTagNames = officialDemoTags

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

/** `mysql://root@127.0.0.1:3306` unless NEXUSPHP_BENCH_MYSQL_URL says otherwise (no database in it). */
export function mysqlServerUrl(): string {
  return process.env.NEXUSPHP_BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306'
}

export function benchDatabaseUrl(): string {
  const url = new URL(mysqlServerUrl())
  url.pathname = `/${BENCH_DATABASE}`
  return url.toString()
}

export async function connect(database?: string): Promise<mysql.Connection> {
  const url = new URL(mysqlServerUrl())
  if (database) url.pathname = `/${database}`
  return mysql.createConnection({
    uri: url.toString(),
    multipleStatements: true,
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: false,
  })
}

// ------------------------------------------------------------------------------------ the site

const HOUR = 3600
const DAY = 86400
const YEAR = 365 * DAY

interface Site {
  memberUids: Int32Array
  isMember: Uint8Array
  // torrents, index = id - 1
  tTeam: Uint8Array
  tKind: Uint8Array
  tCategory: Uint16Array
  tSizeGiB: Float64Array
  tAddedAgo: Int32Array
  tOwner: Int32Array
  tTag1: Uint8Array
  tTag2: Uint8Array
  tOfficial: Uint8Array
  tSeeders: Int32Array
  tLeechers: Int32Array
  tCompleted: Int32Array
  // snatches in id order (index = id - 1)
  sTorrent: Int32Array
  sUser: Int32Array
  sStartAgo: Int32Array
  /** Peer index + 1, or 0. */
  sPeer: Int32Array
  sFinished: Uint8Array
  /** Seconds before @base of last_action; -1 = NULL. */
  sLastAgo: Int32Array
  // peers in id order: the snatch they belong to
  pSnatch: Int32Array
  pSeeder: Uint8Array
  pLastAgo: Int32Array
  // claims in id order: the snatch they belong to
  cSnatch: Int32Array
}

const kinds: TorrentKind[] = ['movie', 'tv', 'documentary', 'anime', 'music', 'variety', 'sports']

/** Everything that ties rows of different tables together, in typed arrays (~60 MB at full size). */
function planSite(): Site {
  const rng = new Prng(`${SEED}:plan`)
  const U = SITE.siteUsers
  const T = SITE.torrents
  const S = SITE.snatched

  // ---- members: 2,000 distinct site users
  const uids = Int32Array.from({ length: U }, (_, i) => i + 1)
  for (let i = U - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1))
    const t = uids[i]
    uids[i] = uids[j]
    uids[j] = t
  }
  const memberUids = uids.slice(0, SITE.members).sort()
  const isMember = new Uint8Array(U + 1)
  for (const uid of memberUids) isMember[uid] = 1

  // ---- torrents (ids in upload order: a higher id is newer)
  const teamPicker = new WeightedPicker([...demoTeams.map((t) => t.weight), NO_TEAM_WEIGHT])
  const tTeam = new Uint8Array(T)
  const tKind = new Uint8Array(T)
  const tCategory = new Uint16Array(T)
  const tSizeGiB = new Float64Array(T)
  const tAddedAgo = new Int32Array(T)
  const tOwner = new Int32Array(T)
  const tTag1 = new Uint8Array(T)
  const tTag2 = new Uint8Array(T)
  const tOfficial = new Uint8Array(T)
  const officialTag = demoTags.indexOf(officialTagNames[0]) + 1
  for (let i = 0; i < T; i++) {
    const teamIndex = teamPicker.pick(rng)
    const team = teamIndex < demoTeams.length ? demoTeams[teamIndex] : null
    const kind = team ? rng.pick(team.kinds) : rng.pick(kinds)
    tTeam[i] = team ? teamIndex + 1 : 0
    tKind[i] = kinds.indexOf(kind)
    tCategory[i] = 401 + demoCategories.findIndex((c) => c.kind === kind)
    const profile = sizeProfile[kind]
    tSizeGiB[i] = Math.min(80, Math.max(0.2, rng.logNormal(profile.medianGiB, profile.sigma)))
    tAddedAgo[i] = Math.max(600, Math.round((1 - i / T) * 3 * YEAR + (rng.next() - 0.5) * DAY))
    tOwner[i] = rng.chance(0.06) ? memberUids[rng.int(0, memberUids.length - 1)] : rng.int(1, U)
    // Tags: the official tag on half the official teams' releases and on a few others.
    const tags = new Set<number>()
    if (team?.official ? rng.chance(0.5) : rng.chance(0.03)) tags.add(officialTag)
    const more = rng.chance(0.3) ? (rng.chance(0.2) ? 2 : 1) : 0
    while (tags.size < Math.min(2, more + (tags.has(officialTag) ? 1 : 0))) tags.add(rng.int(1, demoTags.length))
    const list = [...tags]
    tTag1[i] = list[0] ?? 0
    tTag2[i] = list[1] ?? 0
    tOfficial[i] = team?.official || tags.has(officialTag) ? 1 : 0
  }
  const officialIds: number[] = []
  for (let i = T - 1; i >= 0; i--) if (tOfficial[i]) officialIds.push(i + 1) // newest first

  // ---- snatches: how many per user (exactly SITE.snatched in all), then distinct torrents each
  const memberTotal = Math.round(S * MEMBER_SNATCH_SHARE)
  const perUser = new Int32Array(U + 1)
  const allocate = (users: ArrayLike<number>, total: number, sigma: number) => {
    const weights = Array.from(users, () => rng.logNormal(1, sigma))
    const sum = weights.reduce((a, b) => a + b, 0)
    let given = 0
    for (let i = 0; i < users.length; i++) {
      perUser[users[i]] = Math.min(8_000, Math.max(1, Math.round((weights[i] / sum) * total)))
      given += perUser[users[i]]
    }
    while (given !== total) {
      const uid = users[rng.int(0, users.length - 1)]
      const step = given < total ? 1 : -1
      if (perUser[uid] + step < 1 || perUser[uid] + step > 8_000) continue
      perUser[uid] += step
      given += step
    }
  }
  allocate(memberUids, memberTotal, 0.8)
  allocate(uids.slice(SITE.members), S - memberTotal, 1.2)

  const rawTorrent = new Int32Array(S)
  const rawUser = new Int32Array(S)
  const rawStartAgo = new Int32Array(S)
  let n = 0
  const taken = new Set<number>()
  for (let uid = 1; uid <= U; uid++) {
    taken.clear()
    const member = isMember[uid] === 1
    for (let k = 0; k < perUser[uid]; k++) {
      let id = 0
      for (let attempt = 0; attempt < 64 && (id === 0 || taken.has(id)); attempt++) {
        // Members keep the team's releases; everyone prefers new torrents.
        id =
          member && rng.chance(0.45)
            ? officialIds[Math.floor(rng.next() ** 1.3 * officialIds.length)]
            : T - Math.floor(rng.next() ** 1.6 * T)
      }
      while (taken.has(id)) id = (id % T) + 1
      taken.add(id)
      rawTorrent[n] = id
      rawUser[n] = uid
      // Most snatches come soon after the upload.
      rawStartAgo[n] = Math.max(60, Math.floor(tAddedAgo[id - 1] * (1 - rng.next() ** 3)))
      n++
    }
  }

  // ids in start order, like a real site's
  const order = Int32Array.from({ length: S }, (_, i) => i).sort((a, b) => rawStartAgo[b] - rawStartAgo[a] || a - b)
  const sTorrent = new Int32Array(S)
  const sUser = new Int32Array(S)
  const sStartAgo = new Int32Array(S)
  for (let i = 0; i < S; i++) {
    sTorrent[i] = rawTorrent[order[i]]
    sUser[i] = rawUser[order[i]]
    sStartAgo[i] = rawStartAgo[order[i]]
  }

  // ---- peers: exactly SITE.peers snatches still announcing, members' three times as likely
  const key = new Float64Array(S)
  for (let i = 0; i < S; i++) key[i] = rng.next() / (isMember[sUser[i]] ? 0.34 : 0.12)
  const byKey = Int32Array.from({ length: S }, (_, i) => i).sort((a, b) => key[a] - key[b])
  const isPeer = new Uint8Array(S)
  for (let i = 0; i < SITE.peers; i++) isPeer[byKey[i]] = 1

  const sPeer = new Int32Array(S)
  const sFinished = new Uint8Array(S)
  const sLastAgo = new Int32Array(S)
  const pSnatch = new Int32Array(SITE.peers)
  const pSeeder = new Uint8Array(SITE.peers)
  const pLastAgo = new Int32Array(SITE.peers)
  const tSeeders = new Int32Array(T)
  const tLeechers = new Int32Array(T)
  const tCompleted = new Int32Array(T)
  const claims: number[] = []
  let p = 0
  for (let i = 0; i < S; i++) {
    const t = sTorrent[i] - 1
    const member = isMember[sUser[i]] === 1
    if (isPeer[i]) {
      const seeder = rng.chance(member ? 0.86 : 0.7)
      const r = rng.next()
      // Active (within the 60-minute window), near its edge (ages out during the bench), or stale.
      let ago = r < 0.78 ? rng.int(5, 45 * 60) : r < 0.85 ? rng.int(45 * 60, 75 * 60) : rng.int(75 * 60, 14 * DAY)
      ago = Math.min(ago, sStartAgo[i])
      pSnatch[p] = i
      pSeeder[p] = seeder ? 1 : 0
      pLastAgo[p] = ago
      sPeer[i] = ++p
      sFinished[i] = seeder ? 1 : 0
      sLastAgo[i] = ago
      if (seeder) tSeeders[t]++
      else tLeechers[t]++
    } else {
      sFinished[i] = rng.chance(0.85) ? 1 : 0
      const floor = Math.min(75 * 60, sStartAgo[i])
      sLastAgo[i] = rng.chance(0.002) ? -1 : rng.int(floor, sStartAgo[i])
    }
    if (sFinished[i]) tCompleted[t]++
    if (rng.chance(member ? (tOfficial[t] ? 0.3 : 0.015) : tOfficial[t] ? 0.05 : 0)) claims.push(i)
  }
  return {
    memberUids,
    isMember,
    tTeam,
    tKind,
    tCategory,
    tSizeGiB,
    tAddedAgo,
    tOwner,
    tTag1,
    tTag2,
    tOfficial,
    tSeeders,
    tLeechers,
    tCompleted,
    sTorrent,
    sUser,
    sStartAgo,
    sPeer,
    sFinished,
    sLastAgo,
    pSnatch,
    pSeeder,
    pLastAgo,
    cSnatch: Int32Array.from(claims),
  }
}

// ------------------------------------------------------------------------------------ loading

/**
 * A column of a load: `n` number, `s` text, `x` hex → binary, `ago` seconds before @base → DATETIME
 * (or TIMESTAMP), `epochAgo` seconds before @base → epoch seconds (0 when absent).
 */
type ColumnKind = 'n' | 's' | 'x' | 'ago' | 'epochAgo'
type LoadColumn = readonly [name: string, kind: ColumnKind]
const NULL = '\\N'

function sqlFor(kind: ColumnKind, value: string): string {
  switch (kind) {
    case 'x':
      return `UNHEX(${value})`
    case 'ago':
      return `@base - INTERVAL ${value} SECOND`
    case 'epochAgo':
      return `IFNULL(UNIX_TIMESTAMP(@base) - ${value}, 0)`
    default:
      return value
  }
}

function tsvEscape(value: string): string {
  return /[\\\t\n]/.test(value) ? value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n') : value
}

export type LoadMethod = 'infile' | 'insert'

/** Loads rows (arrays of strings; `\N` = NULL) into `table`, in one stream or INSERTs of 2,000 rows. */
async function load(
  conn: mysql.Connection,
  method: LoadMethod,
  table: string,
  columns: readonly LoadColumn[],
  rows: Iterable<string[]>,
): Promise<number> {
  let count = 0
  if (method === 'infile') {
    function* chunks(): Generator<Buffer> {
      let lines: string[] = []
      let size = 0
      for (const row of rows) {
        const line = row.map((v) => (v === NULL ? v : tsvEscape(v))).join('\t')
        lines.push(line)
        size += line.length
        count++
        if (size > 256 * 1024) {
          yield Buffer.from(`${lines.join('\n')}\n`)
          lines = []
          size = 0
        }
      }
      if (lines.length) yield Buffer.from(`${lines.join('\n')}\n`)
    }
    const list = columns.map(([name, kind], i) => (kind === 'n' || kind === 's' ? `\`${name}\`` : `@v${i}`)).join(', ')
    const set = columns.flatMap(([name, kind], i) => (kind === 'n' || kind === 's' ? [] : [`\`${name}\` = ${sqlFor(kind, `@v${i}`)}`]))
    await conn.query({
      sql: `LOAD DATA LOCAL INFILE 'stream' INTO TABLE \`${table}\` CHARACTER SET utf8mb4 (${list})${set.length ? ` SET ${set.join(', ')}` : ''}`,
      infileStreamFactory: () => Readable.from(chunks()),
    })
    return count
  }
  const head = `INSERT INTO \`${table}\` (${columns.map(([name]) => `\`${name}\``).join(', ')}) VALUES `
  let batch: string[] = []
  const flush = async () => {
    if (batch.length) await conn.query(head + batch.join(','))
    batch = []
  }
  for (const row of rows) {
    batch.push(
      `(${row.map((v, i) => (v === NULL ? (columns[i][1] === 'epochAgo' ? '0' : 'NULL') : columns[i][1] === 's' ? conn.escape(v) : columns[i][1] === 'x' ? `X'${v}'` : sqlFor(columns[i][1], v))).join(',')})`,
    )
    count++
    if (batch.length === 2_000) await flush()
  }
  await flush()
  return count
}

const ago = (seconds: number) => (seconds < 0 ? NULL : String(Math.round(seconds)))
const bytes = (gib: number) => String(Math.round(gib * 1024 ** 3))
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

// ------------------------------------------------------------------------------------ reuse

export interface BenchSiteInfo {
  generatedAt: string
  generationSec: number
  method: LoadMethod
  /** Rows per table as generated. */
  rows: Record<string, number>
  memberUids: number[]
  /** Seconds the clock shift of a reused database took (0 when fresh). */
  shiftSec: number
  shiftedBy: number
}

/** Whether a complete database of this generator's version exists. */
export async function benchSiteExists(): Promise<boolean> {
  const conn = await connect()
  try {
    const [tables] = (await conn.query('SELECT table_name AS t FROM information_schema.tables WHERE table_schema = ? AND table_name = ?', [
      BENCH_DATABASE,
      '_bench_meta',
    ])) as unknown as [unknown[]]
    if (tables.length === 0) return false
    const [rows] = (await conn.query(`SELECT v FROM \`${BENCH_DATABASE}\`._bench_meta WHERE k = 'version'`)) as unknown as [{ v: string }[]]
    return rows[0]?.v === String(GENERATOR_VERSION)
  } finally {
    await conn.end()
  }
}

/**
 * Before a run: undoes the previous run's change step (rows it added go, peers it deleted come back)
 * and moves every date forward by the time since generation / the previous shift, so the site looks
 * as it did when generated, seen from now.
 */
export async function prepareBenchSite(log: (line: string) => void): Promise<BenchSiteInfo> {
  const conn = await connect(BENCH_DATABASE)
  try {
    const [metaRows] = (await conn.query('SELECT k, v FROM _bench_meta')) as unknown as [{ k: string; v: string }[]]
    const meta = Object.fromEntries(metaRows.map((r) => [r.k, r.v]))
    const base = JSON.parse(meta.base_max_ids) as Record<string, number>
    await conn.query(`DELETE FROM claims WHERE id > ${base.claims}; DELETE FROM torrent_tags WHERE id > ${base.torrent_tags};
      DELETE FROM peers WHERE id > ${base.peers}; DELETE FROM snatched WHERE id > ${base.snatched}; DELETE FROM torrents WHERE id > ${base.torrents}; DELETE FROM users WHERE id > ${base.users};
      INSERT INTO peers SELECT * FROM _bench_deleted_peers; DELETE FROM _bench_deleted_peers`)
    const [[{ d }]] = (await conn.query('SELECT TIMESTAMPDIFF(SECOND, ?, NOW()) AS d', [meta.shifted_to])) as unknown as [[{ d: number }]]
    const started = performance.now()
    if (d > 0) {
      const shift = (cols: string[]) => cols.map((c) => `\`${c}\` = \`${c}\` + INTERVAL ${d} SECOND`).join(', ')
      log(`  shifting the site's dates forward by ${(d / 3600).toFixed(1)} h (time since the last run)…`)
      await conn.query(
        `UPDATE users SET ${shift(['added', 'last_login', 'last_access'])};
        UPDATE torrents SET ${shift(['added', 'last_action'])};
        UPDATE tags SET ${shift(['created_at', 'updated_at'])};
        UPDATE torrent_tags SET ${shift(['created_at', 'updated_at'])};
        UPDATE peers SET ${shift(['started', 'last_action', 'prev_action'])}, finishedat = IF(finishedat > 0, finishedat + ${d}, 0);
        UPDATE snatched SET ${shift(['last_action', 'startdat', 'completedat'])};
        UPDATE claims SET ${shift(['last_settle_at', 'created_at', 'updated_at'])};
        UPDATE _bench_meta SET v = DATE_FORMAT(? + INTERVAL ${d} SECOND, '%Y-%m-%d %H:%i:%s') WHERE k = 'shifted_to'`,
        [meta.shifted_to],
      )
    }
    const shiftSec = (performance.now() - started) / 1000
    const [members] = (await conn.query('SELECT uid FROM _bench_members ORDER BY uid')) as unknown as [{ uid: number }[]]
    return {
      generatedAt: meta.generated_at,
      generationSec: Number(meta.generation_sec),
      method: meta.method as LoadMethod,
      rows: JSON.parse(meta.rows) as Record<string, number>,
      memberUids: members.map((m) => m.uid),
      shiftSec,
      shiftedBy: Math.max(0, d),
    }
  } finally {
    await conn.end()
  }
}

// ------------------------------------------------------------------------------------ the change

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

export function officialTeamIds(): number[] {
  return demoTeams.flatMap((t, i) => (t.official ? [i + 1] : []))
}
