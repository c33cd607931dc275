/**
 * A throw-away NexusPHP database for tests and benchmarks: a uniquely named database on the
 * MariaDB/MySQL of NEXUSPHP_TEST_DATABASE_URL with NexusPHP's tables in one of the two shapes a site
 * can have (`shape`: 'innodb', a migrated install, nexusphp-schema.sql; 'v16', a v1.6 install with
 * MyISAM tables and MEMORY peers, nexusphp-schema-v16.sql), and small builders with NexusPHP's
 * defaults. Times are epoch ms; they are written as DATETIMEs in the fixture's session time zone
 * (`timeZone`, default SITE_TIME_ZONE), as the site's PHP would.
 *
 *   const site = await NexusFixture.create(process.env.NEXUSPHP_TEST_DATABASE_URL!)
 *   await site.user({ id: 1001, username: 'alice' })
 *   await site.torrent({ id: 1, team: 1 })
 *   await site.peer({ userid: 1001, torrent: 1, seeder: true, lastAction: now - 60_000 })
 *   … site.url is the database to point the connector at …
 *   await site.drop()
 */
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import mysql from 'mysql2/promise'
import type { Connection, ResultSetHeader } from 'mysql2/promise'

const GIB = 1024 ** 3
/** The two shapes of a NexusPHP database (see the header of each schema file). */
export const fixtureShapes = ['innodb', 'v16'] as const
export type FixtureShape = (typeof fixtureShapes)[number]

export const schemaFiles: Record<FixtureShape, URL> = {
  innodb: new URL('./nexusphp-schema.sql', import.meta.url),
  v16: new URL('./nexusphp-schema-v16.sql', import.meta.url),
}

/** The schema's statements (comments dropped). */
export function schemaStatements(shape: FixtureShape = 'innodb'): string[] {
  return readFileSync(schemaFiles[shape], 'utf8')
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('--'))
    .join('\n')
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.trim())
    .filter(Boolean)
}

/**
 * The zone the site's PHP writes DATETIMEs in unless a test says otherwise: NexusPHP's shipped PRC
 * (what NEXUSPHP_TIMEZONE unset means), as an offset — test servers often lack the zone tables.
 */
export const SITE_TIME_ZONE = '+08:00'

/** Seconds for FROM_UNIXTIME, or null (NULL DATETIME). */
const at = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : ms / 1000)
const yes = (v: boolean | undefined, fallback: boolean) => ((v ?? fallback) ? 'yes' : 'no')

export class NexusFixture {
  private nextPeer = 1

  private constructor(
    /** The fixture database as a connector URL. */
    readonly url: string,
    readonly database: string,
    /** A connection to it (session time zone = the fixture's). */
    readonly conn: Connection,
    private readonly serverUrl: string,
    readonly shape: FixtureShape,
  ) {}

  /** Creates `nx_<random>` on the server of `serverUrl` with NexusPHP's tables. */
  static async create(serverUrl: string, options: { timeZone?: string; shape?: FixtureShape } = {}): Promise<NexusFixture> {
    const database = `nx_${randomBytes(6).toString('hex')}`
    const admin = await connect(serverUrl, false)
    try {
      await admin.query(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`)
    } finally {
      await admin.end()
    }
    const url = new URL(serverUrl)
    url.pathname = `/${database}`
    const conn = await connect(url.toString())
    // Old rows of real sites hold zero dates; strict mode would refuse to write them here.
    await conn.query(`SET SESSION sql_mode = ''`)
    await conn.query('SET time_zone = ?', [options.timeZone ?? SITE_TIME_ZONE])
    const shape = options.shape ?? 'innodb'
    for (const statement of schemaStatements(shape)) await conn.query(statement)
    return new NexusFixture(url.toString(), database, conn, serverUrl, shape)
  }

  /** The source server's clock (epoch ms). */
  async now(): Promise<number> {
    const [rows] = await this.conn.query('SELECT UNIX_TIMESTAMP(NOW(3)) AS t')
    return Math.round(Number((rows as { t: string }[])[0].t) * 1000)
  }

  async exec(sql: string, values: unknown[] = []): Promise<ResultSetHeader> {
    const [result] = await this.conn.query(sql, values)
    return result as ResultSetHeader
  }

  async rows<T>(sql: string, values: unknown[] = []): Promise<T[]> {
    const [rows] = await this.conn.query(sql, values)
    return rows as T[]
  }

  async user(u: {
    id: number
    username: string
    class?: number
    enabled?: boolean
    added?: number | null
    lastAccess?: number | null
  }): Promise<void> {
    await this.exec(
      `INSERT INTO users (id, username, passhash, email, status, added, last_access, class, enabled, passkey)
        VALUES (?, ?, 'x', ?, 'confirmed', FROM_UNIXTIME(?), FROM_UNIXTIME(?), ?, ?, ?)`,
      [
        u.id,
        u.username,
        `${u.username}@example.org`,
        at(u.added === undefined ? Date.UTC(2024, 0, 1) : u.added),
        at(u.lastAccess),
        u.class ?? 1,
        yes(u.enabled, true),
        randomBytes(16).toString('hex'),
      ],
    )
  }

  async team(id: number, name: string): Promise<void> {
    await this.exec('INSERT INTO teams (id, name, sort_index) VALUES (?, ?, ?)', [id, name, id])
  }

  async category(id: number, name: string): Promise<void> {
    await this.exec('INSERT INTO categories (id, name, sort_index) VALUES (?, ?, ?)', [id, name, id])
  }

  async tag(id: number, name: string): Promise<void> {
    await this.exec('INSERT INTO tags (id, name, priority, created_at, updated_at) VALUES (?, ?, ?, NOW(), NOW())', [id, name, id])
  }

  /** Returns the info hash as lower-case hex. */
  async torrent(t: {
    id: number
    name?: string
    size?: number
    category?: number
    team?: number
    owner?: number
    added?: number | null
    seeders?: number
    leechers?: number
    banned?: boolean
    visible?: boolean
    /**
     * Torrent review (`approval_status`): 0 not reviewed, 1 allowed, 2 denied. Unset: the column's
     * default (0, what an upload by a class below `torrent-approval-allow-automatic` gets), or no column.
     */
    approvalStatus?: number
  }): Promise<string> {
    const hash = randomBytes(20)
    const reviewed = t.approvalStatus !== undefined
    await this.exec(
      `INSERT INTO torrents (id, info_hash, name, filename, descr, category, team, size, added, seeders, leechers, times_completed, owner,
          banned, visible${reviewed ? ', approval_status' : ''})
        VALUES (?, ?, ?, ?, 'descr', ?, ?, ?, FROM_UNIXTIME(?), ?, ?, 0, ?, ?, ?${reviewed ? ', ?' : ''})`,
      [
        t.id,
        hash,
        t.name ?? `Torrent.${t.id}.2024.1080p.WEB-DL`,
        `${t.id}.torrent`,
        t.category ?? 0,
        t.team ?? 0,
        t.size ?? 5 * GIB,
        at(t.added === undefined ? Date.UTC(2024, 5, 1) : t.added),
        t.seeders ?? 1,
        t.leechers ?? 0,
        t.owner ?? 0,
        yes(t.banned, false),
        yes(t.visible, true),
        ...(reviewed ? [t.approvalStatus] : []),
      ],
    )
    return hash.toString('hex')
  }

  async torrentTag(torrentId: number, tagId: number): Promise<number> {
    return (
      await this.exec('INSERT INTO torrent_tags (torrent_id, tag_id, created_at, updated_at) VALUES (?, ?, NOW(), NOW())', [
        torrentId,
        tagId,
      ])
    ).insertId
  }

  /** A peer (an announce); returns its id. */
  async peer(p: {
    userid: number
    torrent: number
    seeder: boolean
    lastAction: number | null
    toGo?: number
    uploaded?: number
    started?: number | null
    finishedAt?: number
    peerId?: Buffer
  }): Promise<number> {
    const peerId = p.peerId ?? Buffer.concat([Buffer.from('-qB4650-'), randomBytes(12)])
    const result = await this.exec(
      `INSERT INTO peers (torrent, peer_id, ip, port, uploaded, downloaded, to_go, seeder, started, last_action, prev_action, connectable,
          userid, agent, finishedat, passkey)
        VALUES (?, ?, ?, ?, ?, 0, ?, ?, FROM_UNIXTIME(?), FROM_UNIXTIME(?), FROM_UNIXTIME(?), 'yes', ?, 'qBittorrent/4.6.5', ?, 'x')`,
      [
        p.torrent,
        peerId,
        `10.0.0.${this.nextPeer++ % 250}`,
        51413,
        p.uploaded ?? 0,
        p.toGo ?? 0,
        yes(p.seeder, false),
        at(p.started === undefined ? p.lastAction : p.started),
        at(p.lastAction),
        at(p.lastAction === null ? null : p.lastAction - 1800_000),
        p.userid,
        Math.round((p.finishedAt ?? 0) / 1000),
      ],
    )
    return result.insertId
  }

  /** A snatch (per user × torrent counters); returns its id. */
  async snatch(s: {
    userid: number
    torrent: number
    finished: boolean
    lastAction: number | null
    uploaded?: number
    downloaded?: number
    seedtime?: number
    toGo?: number
    startdat?: number | null
    completedAt?: number | null
  }): Promise<number> {
    const result = await this.exec(
      `INSERT INTO snatched (torrentid, userid, ip, port, uploaded, downloaded, to_go, seedtime, leechtime, last_action, startdat, completedat, finished)
        VALUES (?, ?, '10.0.0.1', 51413, ?, ?, ?, ?, 600, FROM_UNIXTIME(?), FROM_UNIXTIME(?), FROM_UNIXTIME(?), ?)`,
      [
        s.torrent,
        s.userid,
        s.uploaded ?? 0,
        s.downloaded ?? 0,
        s.toGo ?? (s.finished ? 0 : GIB),
        s.seedtime ?? 0,
        at(s.lastAction),
        at(s.startdat === undefined ? s.lastAction : s.startdat),
        at(s.completedAt === undefined ? (s.finished ? s.lastAction : null) : s.completedAt),
        yes(s.finished, false),
      ],
    )
    return result.insertId
  }

  /**
   * A claim, written as NexusPHP's Laravel writes one (ClaimRepository::store): `snatched_id`,
   * `seed_time_begin` and `uploaded_begin` from the member's snatch of the torrent as it is now (0 when
   * there is none — NexusPHP would refuse the claim; some tests need one anyway), and the site's wall
   * clock (PHP's time zone, the fixture's) into TIMESTAMP columns, by a session left in the database
   * server's own zone (Laravel sets none) — so the stored instant is off by the difference of the two
   * zones. Returns its id.
   */
  async claim(c: { uid: number; torrent: number; snatchedId?: number; createdAt?: number }): Promise<number> {
    const [snatch] = await this.rows<{ id: number; seedtime: string; uploaded: string }>(
      c.snatchedId === undefined
        ? 'SELECT id, seedtime, uploaded FROM snatched WHERE userid = ? AND torrentid = ? ORDER BY id LIMIT 1'
        : 'SELECT id, seedtime, uploaded FROM snatched WHERE id = ?',
      c.snatchedId === undefined ? [c.uid, c.torrent] : [c.snatchedId],
    )
    const wall = await this.wallClock(c.createdAt ?? Date.now())
    return this.laravel(async () => {
      const result = await this.exec(
        `INSERT INTO claims (uid, torrent_id, snatched_id, seed_time_begin, uploaded_begin, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
        [c.uid, c.torrent, c.snatchedId ?? snatch?.id ?? 0, snatch?.seedtime ?? 0, snatch?.uploaded ?? 0, wall, wall],
      )
      return result.insertId
    })
  }

  /** The site's wall clock (the fixture's zone) at `ms`, as PHP's `date('Y-m-d H:i:s')` / Carbon's toDateTimeString() write it. */
  async wallClock(ms: number): Promise<string> {
    const [{ wall }] = await this.rows<{ wall: string }>(`SELECT DATE_FORMAT(FROM_UNIXTIME(?), '%Y-%m-%d %H:%i:%s') AS wall`, [at(ms)])
    return wall
  }

  /** Runs `work` in a session of the database server's own zone, as Laravel's connection is (it sets none). */
  async laravel<T>(work: () => Promise<T>): Promise<T> {
    const [{ zone }] = await this.rows<{ zone: string }>('SELECT @@session.time_zone AS zone')
    await this.exec('SET time_zone = @@global.time_zone')
    try {
      return await work()
    } finally {
      await this.exec('SET time_zone = ?', [zone])
    }
  }

  /**
   * A regular announce of a seeding client at `at` (epoch ms), as announce.php continues a session: the
   * snatch gains the seconds since the peer's last announce as seed time (`seedtime = seedtime +
   * announcetime`, the peer being a seeder) and the bytes uploaded since, the peer and the snatch take the
   * time, and the torrent's `last_action` too (announce.php touches it for a seeder). Needs the peer and the
   * snatch (`peer`, `snatch`); returns the seconds added.
   */
  async announce(a: { userid: number; torrent: number; at: number; uploaded?: number }): Promise<number> {
    const [peer] = await this.rows<{ id: number; last: string }>(
      "SELECT id, UNIX_TIMESTAMP(last_action) AS last FROM peers WHERE userid = ? AND torrent = ? AND seeder = 'yes' ORDER BY id LIMIT 1",
      [a.userid, a.torrent],
    )
    if (!peer) throw new Error(`no seeding peer of ${a.userid} on torrent ${a.torrent}`)
    const seconds = Math.round(a.at / 1000 - Number(peer.last))
    if (seconds < 0) throw new Error(`an announce at ${new Date(a.at).toISOString()} is before the peer's last one`)
    const up = a.uploaded ?? 0
    await this.exec('UPDATE peers SET uploaded = uploaded + ?, prev_action = last_action, last_action = FROM_UNIXTIME(?) WHERE id = ?', [
      up,
      at(a.at),
      peer.id,
    ])
    const snatched = await this.exec(
      'UPDATE snatched SET uploaded = uploaded + ?, seedtime = seedtime + ?, last_action = FROM_UNIXTIME(?) WHERE userid = ? AND torrentid = ?',
      [up, seconds, at(a.at), a.userid, a.torrent],
    )
    if (snatched.affectedRows !== 1) throw new Error(`no snatch of ${a.userid} on torrent ${a.torrent}`)
    await this.exec("UPDATE torrents SET visible = 'yes', last_action = FROM_UNIXTIME(?) WHERE id = ?", [at(a.at), a.torrent])
    return seconds
  }

  /** A row of NexusPHP's `settings` (e.g. 'main.anninterthree' → '3600'). */
  async setting(name: string, value: string): Promise<void> {
    await this.exec('INSERT INTO settings (name, value) VALUES (?, ?) ON DUPLICATE KEY UPDATE value = VALUES(value)', [name, value])
  }

  async drop(): Promise<void> {
    await this.conn.end().catch(() => {})
    const admin = await connect(this.serverUrl, false)
    try {
      await admin.query(`DROP DATABASE IF EXISTS \`${this.database}\``)
    } finally {
      await admin.end()
    }
  }
}

/** `withDatabase` false: the server only (the URL's database, e.g. `test`, need not exist). */
async function connect(url: string, withDatabase = true): Promise<Connection> {
  const u = new URL(url)
  return mysql.createConnection({
    host: u.hostname,
    port: u.port ? Number(u.port) : 3306,
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: withDatabase ? decodeURIComponent(u.pathname.replace(/^\//, '')) || undefined : undefined,
    dateStrings: true,
    supportBigNumbers: true,
    charset: 'utf8mb4',
  })
}
