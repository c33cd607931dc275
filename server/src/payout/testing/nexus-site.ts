/**
 * A throw-away NexusPHP site for the payout tests: a uniquely named database on the MariaDB of
 * NEXUSPHP_TEST_DATABASE_URL with the tables paying writes — `users` (seedbonus decimal(10,1) as v1.6
 * installed it, decimal(20,1) after the later migration), `bonus_logs` and `messages`, and for settleClaims `claims` with the `snatched` and
 * `torrents` columns it reads, as NexusPHP's migrations define them — in InnoDB (a
 * migrated install) or MyISAM (a v1.6 install), and a write account holding exactly the grants
 * README lists (or one fewer, to test a missing grant).
 */
import { randomBytes } from 'node:crypto'
import mysql from 'mysql2/promise'
import type { Connection, ResultSetHeader, RowDataPacket } from 'mysql2/promise'

export type SiteEngine = 'InnoDB' | 'MyISAM'

/** The largest seedbonus the site's column holds less one point: v1.6's decimal(10,1), a migrated site's decimal(20,1). */
export const nearMaxBonus = (engine: SiteEngine) => (engine === 'MyISAM' ? '999999990.0' : '9999999999999999990.0')

const tables = (engine: SiteEngine) => [
  `CREATE TABLE users (
    id int unsigned NOT NULL AUTO_INCREMENT,
    username varchar(40) NOT NULL DEFAULT '',
    added datetime DEFAULT NULL,
    class tinyint unsigned NOT NULL DEFAULT '1',
    seedbonus ${engine === 'MyISAM' ? 'decimal(10,1)' : 'decimal(20,1)'} NOT NULL DEFAULT '0.0',
    enabled enum('yes','no') NOT NULL DEFAULT 'yes',
    PRIMARY KEY (id),
    UNIQUE KEY username (username)
  ) ENGINE=${engine} DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`,
  `CREATE TABLE bonus_logs (
    id bigint unsigned NOT NULL AUTO_INCREMENT,
    business_type int NOT NULL DEFAULT '0',
    uid int NOT NULL,
    old_total_value int NOT NULL,
    value int NOT NULL,
    new_total_value int NOT NULL,
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
  ) ENGINE=${engine} DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`,
  // The claim settlement's tables (settleClaims), the columns it reads or writes as NexusPHP has them.
  `CREATE TABLE torrents (
    id mediumint unsigned NOT NULL AUTO_INCREMENT,
    name varchar(255) NOT NULL DEFAULT '',
    size bigint unsigned NOT NULL DEFAULT '0',
    added datetime DEFAULT NULL,
    PRIMARY KEY (id)
  ) ENGINE=${engine} DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`,
  `CREATE TABLE snatched (
    id bigint unsigned NOT NULL AUTO_INCREMENT,
    torrentid mediumint unsigned NOT NULL DEFAULT '0',
    userid mediumint unsigned NOT NULL DEFAULT '0',
    uploaded bigint unsigned NOT NULL DEFAULT '0',
    downloaded bigint unsigned NOT NULL DEFAULT '0',
    seedtime int unsigned NOT NULL DEFAULT '0',
    last_action datetime DEFAULT NULL,
    finished enum('yes','no') NOT NULL DEFAULT 'no',
    PRIMARY KEY (id),
    UNIQUE KEY torrentid_userid (torrentid, userid)
  ) ENGINE=${engine} DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`,
  `CREATE TABLE claims (
    id bigint unsigned NOT NULL AUTO_INCREMENT,
    uid int NOT NULL,
    torrent_id int NOT NULL,
    snatched_id int NOT NULL,
    seed_time_begin bigint NOT NULL DEFAULT '0',
    uploaded_begin bigint NOT NULL DEFAULT '0',
    last_settle_at datetime DEFAULT NULL,
    created_at timestamp NULL DEFAULT NULL,
    updated_at timestamp NULL DEFAULT NULL,
    PRIMARY KEY (id),
    UNIQUE KEY claims_uid_torrent_id_unique (uid, torrent_id),
    KEY claims_snatched_id_index (snatched_id)
  ) ENGINE=${engine} DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`,
]

/** The write account's grants (README「发放到站点」), `db` being the site's database. */
export const writeGrants = (db: string) => [
  `GRANT SELECT (id, seedbonus) ON ${db}.users`,
  `GRANT UPDATE (seedbonus) ON ${db}.users`,
  `GRANT SELECT, INSERT ON ${db}.bonus_logs`,
  `GRANT SELECT, INSERT ON ${db}.messages`,
  // settleClaims only
  `GRANT SELECT, UPDATE ON ${db}.claims`,
  `GRANT DELETE ON ${db}.claims`,
  `GRANT SELECT (id, seedtime, uploaded) ON ${db}.snatched`,
  `GRANT SELECT (id, name, size) ON ${db}.torrents`,
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

  async user(id: number, seedbonus = '0.0'): Promise<void> {
    await this.conn.query("INSERT INTO users (id, username, added, seedbonus) VALUES (?, ?, '2024-01-01 00:00:00', ?)", [
      id,
      `site${id}`,
      seedbonus,
    ])
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
    await this.conn.query('INSERT IGNORE INTO torrents (id, name, size, added) VALUES (?, ?, ?, ?)', [
      torrentId,
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
