/**
 * A throw-away NexusPHP site for the payout tests: a uniquely named database on the MariaDB of
 * NEXUSPHP_TEST_DATABASE_URL with the tables paying writes or reads, and a write account holding
 * exactly the grants README lists (or one fewer, to test a missing grant).
 *
 * `users`, and for settleClaims `claims`, `snatched`, `torrents` and `settings`, come from the connector's
 * fixture schemas, so the payout is tested against the same NexusPHP tables the sync reads:
 * 'InnoDB' is a migrated install (nexusphp-schema.sql, seedbonus decimal(20,1)), 'MyISAM' a v1.6
 * install upgraded in place (nexusphp-schema-v16.sql: users, torrents and snatched MyISAM, seedbonus
 * decimal(10,1) as v1.6 installed it; claims, added by a later migration, InnoDB). `bonus_logs` and
 * `messages`, which only paying touches, are defined here in the site's engine — messages utf8mb3 on
 * v1.6 as `_db/dbstructure_v1.6.sql` has it, bonus_logs' values int as NexusPHP created them (2021) on
 * v1.6 and decimal(20,1) on the migrated site (its 2023-06 migration, with seedbonus decimal(20,1)).
 */
import { createHash, randomBytes } from 'node:crypto'
import mysql from 'mysql2/promise'
import type { Connection, ResultSetHeader, RowDataPacket } from 'mysql2/promise'
import { schemaStatements, type FixtureShape } from '../../sources/nexusphp/testing/fixture'

export type SiteEngine = 'InnoDB' | 'MyISAM'

/** The largest seedbonus the site's column holds less one point: v1.6's decimal(10,1), a migrated site's decimal(20,1). */
export const nearMaxBonus = (engine: SiteEngine) => (engine === 'MyISAM' ? '999999990.0' : '9999999999999999990.0')

const fixtureShape: Record<SiteEngine, FixtureShape> = { InnoDB: 'innodb', MyISAM: 'v16' }
const fixtureTables = new Set(['users', 'torrents', 'snatched', 'claims', 'settings'])

/** The CREATE TABLE statements of `fixtureTables` in the fixture schema of the site's shape. */
const tablesFromFixture = (engine: SiteEngine) =>
  schemaStatements(fixtureShape[engine]).filter((statement) => fixtureTables.has(/^CREATE TABLE (\w+)/.exec(statement)?.[1] ?? ''))

/** bonus_logs' old_total_value/value/new_total_value: int until NexusPHP's change_bonus_log_table_value_decimal (2023-06). */
const logValueType: Record<SiteEngine, string> = { InnoDB: 'decimal(20,1)', MyISAM: 'int' }

/** v1.6 created messages `DEFAULT CHARSET=utf8` (utf8mb3: no emoji); Laravel's migration utf8mb4. */
const messagesCharset: Record<SiteEngine, string> = {
  InnoDB: 'DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci',
  MyISAM: 'DEFAULT CHARSET=utf8',
}

const tables = (engine: SiteEngine) => [...tablesFromFixture(engine), ...payoutTables(engine)]

/** The tables only paying touches, in the site's engine. */
const payoutTables = (engine: SiteEngine) => [
  `CREATE TABLE bonus_logs (
    id bigint unsigned NOT NULL AUTO_INCREMENT,
    business_type int NOT NULL DEFAULT '0',
    uid int NOT NULL,
    old_total_value ${logValueType[engine]} NOT NULL,
    value ${logValueType[engine]} NOT NULL,
    new_total_value ${logValueType[engine]} NOT NULL,
    comment varchar(255) DEFAULT NULL,
    created_at timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP,
    updated_at timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
    PRIMARY KEY (id),
    KEY bonus_logs_uid_index (uid)
  ) ENGINE=${engine} DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`,
  `CREATE TABLE messages (
    id int unsigned NOT NULL AUTO_INCREMENT,
    sender mediumint unsigned NOT NULL DEFAULT '0',
    receiver mediumint unsigned NOT NULL DEFAULT '0',
    added datetime DEFAULT NULL,
    subject varchar(128) NOT NULL DEFAULT '',
    msg text,
    unread enum('yes','no') NOT NULL DEFAULT 'yes',
    location smallint NOT NULL DEFAULT '1',
    saved enum('no','yes') NOT NULL DEFAULT 'no',
    PRIMARY KEY (id),
    KEY sender (sender),
    KEY receiver (receiver)
  ) ENGINE=${engine} ${messagesCharset[engine]}`,
]

/** The write account's grants (README「发放到站点」), `db` being the site's database. */
export const writeGrants = (db: string) => [
  `GRANT SELECT (id, seedbonus, bonuscomment) ON ${db}.users`,
  `GRANT UPDATE (seedbonus, bonuscomment) ON ${db}.users`,
  `GRANT SELECT, INSERT ON ${db}.bonus_logs`,
  `GRANT SELECT, INSERT ON ${db}.messages`,
  // settleClaims only
  `GRANT SELECT, UPDATE ON ${db}.claims`,
  `GRANT DELETE ON ${db}.claims`,
  `GRANT SELECT (id, seedtime, uploaded) ON ${db}.snatched`,
  `GRANT SELECT (id, name, size) ON ${db}.torrents`,
  `GRANT SELECT (name, value) ON ${db}.settings`,
]

export class NexusSite {
  private constructor(
    readonly database: string,
    readonly conn: Connection,
    private readonly serverUrl: string,
    private readonly accounts: string[],
  ) {}

  static async create(serverUrl: string, engine: SiteEngine): Promise<NexusSite> {
    const database = `payout_${randomBytes(5).toString('hex')}`
    const admin = await mysql.createConnection(serverUrl)
    try {
      await admin.query(`CREATE DATABASE ${database} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`)
    } finally {
      await admin.end()
    }
    const url = new URL(serverUrl)
    url.pathname = `/${database}`
    const conn = await mysql.createConnection({ uri: url.toString(), supportBigNumbers: true, bigNumberStrings: true, dateStrings: true })
    for (const statement of tables(engine)) await conn.query(statement)
    return new NexusSite(database, conn, serverUrl, [])
  }

  /**
   * The payout's side of a connector fixture's site (NexusFixture: every table the sync reads, in its
   * shape): `bonus_logs` and `messages` added to that database, so one site is both synced from and paid
   * into. `drop` drops the database (the fixture's own `drop` then finds it gone).
   */
  static async over(serverUrl: string, site: { database: string; shape: FixtureShape }): Promise<NexusSite> {
    const engine: SiteEngine = site.shape === 'v16' ? 'MyISAM' : 'InnoDB'
    const url = new URL(serverUrl)
    url.pathname = `/${site.database}`
    const conn = await mysql.createConnection({ uri: url.toString(), supportBigNumbers: true, bigNumberStrings: true, dateStrings: true })
    for (const statement of payoutTables(engine)) await conn.query(statement)
    return new NexusSite(site.database, conn, serverUrl, [])
  }

  /** A write account with the README grants, minus any whose text contains `without`; its URL. */
  async writer(options: { without?: string } = {}): Promise<string> {
    const name = `pw_${randomBytes(4).toString('hex')}`
    const password = randomBytes(9).toString('hex')
    await this.conn.query(`CREATE USER '${name}'@'%' IDENTIFIED BY '${password}'`)
    await this.conn.query(`CREATE USER '${name}'@'localhost' IDENTIFIED BY '${password}'`)
    this.accounts.push(name)
    for (const grant of writeGrants(this.database)) {
      if (options.without && grant.includes(options.without)) continue
      await this.conn.query(`${grant} TO '${name}'@'%'`)
      await this.conn.query(`${grant} TO '${name}'@'localhost'`)
    }
    const url = new URL(this.serverUrl)
    url.username = name
    url.password = password
    url.pathname = `/${this.database}`
    return url.toString()
  }

  /** A site user; `bonuscomment` as NexusPHP leaves it (null on a new account, lines of its own bonus changes later). */
  async user(id: number, seedbonus = '0.0', bonuscomment: string | null = null): Promise<void> {
    await this.conn.query("INSERT INTO users (id, username, added, seedbonus, bonuscomment) VALUES (?, ?, '2024-01-01 00:00:00', ?, ?)", [
      id,
      `site${id}`,
      seedbonus,
      bonuscomment,
    ])
  }

  async bonusComment(id: number): Promise<string | null> {
    const [rows] = await this.conn.query<RowDataPacket[]>('SELECT bonuscomment FROM users WHERE id = ?', [id])
    return rows[0]?.bonuscomment === null || rows[0]?.bonuscomment === undefined ? null : String(rows[0].bonuscomment)
  }

  /** A torrent, the member's snatch of it (seed time in seconds) and their claim; the claim's id. */
  async claim(
    uid: number,
    torrentId: number,
    c: {
      size: number
      seedtime: number
      uploaded: number
      seedBegin: number
      uploadedBegin: number
      createdAt: string
      lastSettleAt?: string
    },
  ): Promise<number> {
    // info_hash is NOT NULL without a default in NexusPHP; any 20 bytes unique to the torrent do.
    await this.conn.query('INSERT IGNORE INTO torrents (id, info_hash, name, size, added) VALUES (?, ?, ?, ?, ?)', [
      torrentId,
      createHash('sha1').update(`torrent ${torrentId}`).digest(),
      `种子 ${torrentId}.2024.1080p`,
      c.size,
      '2025-06-01 00:00:00',
    ])
    const [snatch] = await this.conn.query<ResultSetHeader>(
      "INSERT INTO snatched (torrentid, userid, uploaded, seedtime, finished) VALUES (?, ?, ?, ?, 'yes')",
      [torrentId, uid, c.uploaded, c.seedtime],
    )
    const [claim] = await this.conn.query<ResultSetHeader>(
      'INSERT INTO claims (uid, torrent_id, snatched_id, seed_time_begin, uploaded_begin, last_settle_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [uid, torrentId, snatch.insertId, c.seedBegin, c.uploadedBegin, c.lastSettleAt ?? null, c.createdAt, c.createdAt],
    )
    return claim.insertId
  }

  /** A claim made last July (10 GiB torrent, nothing uploaded since its begins) with `hours` seeded since its begins. */
  seededClaim(uid: number, torrentId: number, hours: number): Promise<number> {
    const H = 3600
    return this.claim(uid, torrentId, {
      size: 10 * 1024 ** 3,
      seedtime: (1000 + hours) * H,
      uploaded: 0,
      seedBegin: 1000 * H,
      uploadedBegin: 0,
      createdAt: '2025-07-01 10:00:00',
    })
  }

  /** The site's own claim standard of seed time (`torrent.claim_reach_standard_seed_time`), as its admin panel sets it. */
  async claimStandardHours(hours: number): Promise<void> {
    await this.conn.query(
      "INSERT INTO settings (name, value) VALUES ('torrent.claim_reach_standard_seed_time', ?) ON DUPLICATE KEY UPDATE value = VALUES(value)",
      [String(hours)],
    )
  }

  async claims(uid: number): Promise<RowDataPacket[]> {
    const [rows] = await this.conn.query<RowDataPacket[]>(
      'SELECT id, torrent_id, seed_time_begin, uploaded_begin, last_settle_at FROM claims WHERE uid = ? ORDER BY id',
      [uid],
    )
    return rows
  }

  async bonus(id: number): Promise<string | null> {
    const [rows] = await this.conn.query<RowDataPacket[]>('SELECT seedbonus FROM users WHERE id = ?', [id])
    return rows[0] ? String(rows[0].seedbonus) : null
  }

  async logs(uid?: number): Promise<RowDataPacket[]> {
    const [rows] = await this.conn.query<RowDataPacket[]>(
      `SELECT * FROM bonus_logs${uid === undefined ? '' : ' WHERE uid = ?'} ORDER BY id`,
      uid === undefined ? [] : [uid],
    )
    return rows
  }

  async messages(uid?: number): Promise<RowDataPacket[]> {
    const [rows] = await this.conn.query<RowDataPacket[]>(
      `SELECT * FROM messages${uid === undefined ? '' : ' WHERE receiver = ?'} ORDER BY id`,
      uid === undefined ? [] : [uid],
    )
    return rows
  }

  /** Cuts every connection of the write accounts (a dropped connection, as the site's server would). */
  async killWriters(): Promise<void> {
    const [rows] = await this.conn.query<RowDataPacket[]>(
      `SELECT ID AS id FROM information_schema.PROCESSLIST WHERE USER IN (${this.accounts.map(() => '?').join(', ') || "''"})`,
      this.accounts,
    )
    for (const row of rows) await this.conn.query(`KILL CONNECTION ${Number(row.id)}`).catch(() => {})
  }

  async drop(): Promise<void> {
    for (const name of this.accounts) {
      await this.conn.query(`DROP USER IF EXISTS '${name}'@'%'`).catch(() => {})
      await this.conn.query(`DROP USER IF EXISTS '${name}'@'localhost'`).catch(() => {})
    }
    await this.conn.query(`DROP DATABASE IF EXISTS ${this.database}`)
    await this.conn.end()
  }
}
