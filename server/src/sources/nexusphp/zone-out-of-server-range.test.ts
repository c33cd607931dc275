/**
 * Found by an outside tester (fixed since; the test keeps it so): NEXUSPHP_TIMEZONE whose offset the database server refuses is dropped without a word.
 *
 * loadConfig accepts any IANA zone and any offset up to ±14:59. MariaDB takes offsets only from -12:59 to +13:00
 * (MySQL up to +14:00): Pacific/Kiritimati (+14:00), Pacific/Chatham in summer (+13:45), or `+14:00` itself. On a
 * server without time zone tables (the usual install: mysql_tzinfo_to_sql never run) connection.ts falls back to
 * the offset, reports it as the session's zone, and runs `SET time_zone = '+14:00'` on every pooled connection with
 * its error ignored — the sessions stay in the server's own zone (SYSTEM). Every DATETIME is then read hours off:
 * seeders show as 已停止, and /data-sync says nothing (it even shows the configured zone as in use).
 * Expected: the sync refuses with a Chinese message naming NEXUSPHP_TIMEZONE, or reads in the site's zone.
 */
import { describe, expect, it } from 'vitest'
import { readSyncStatus } from '../../jobs/sync-status'
import { openNexusphpConnection } from './connection'
import { addMember } from './testing/member'
import { scenarioKit, serverUrl, siteCombinations, statuses } from './testing/scenarios'

const Stopped = 7
const kit = scenarioKit()

describe.skipIf(!serverUrl)('NEXUSPHP_TIMEZONE the database server cannot take as an offset', () => {
  it('the session zone is the one reported, or the connection refuses to read', async () => {
    const nx = await kit.site('innodb')
    const connection = openNexusphpConnection({ databaseUrl: nx.url, timezone: 'Pacific/Kiritimati' })
    kit.cleanups.push(() => connection.close())
    const reported = await connection.timeZone().catch((error: Error) => error.message)
    const session = await connection.query<{ z: string }>('SELECT @@session.time_zone AS z').then(
      (rows) => rows[0]!.z,
      (error: Error) => error.message,
    )
    if (/NEXUSPHP_TIMEZONE/.test(String(reported)) || /NEXUSPHP_TIMEZONE/.test(session)) return
    expect(session).toBe(reported)
  })

  it('a member whose client last announced 3 hours ago (past the 80-minute window) is 已停止, not 做种中, or /data-sync says why', async () => {
    const nx = await kit.site('innodb')
    const now = await nx.now()
    await nx.user({ id: 1001, username: 'alice' })
    await nx.torrent({ id: 1 })
    const peer = await nx.peer({ userid: 1001, torrent: 1, seeder: true, lastAction: now - 3 * 3600_000 })
    // What the site's PHP (TIMEZONE=Pacific/Kiritimati, UTC+14 all year) wrote 3 hours ago. Read in the server's
    // zone instead (UTC here) it lies 11 hours ahead: the peer looks active, a ghost seeder paid for the month.
    const wall = new Date(now - 3 * 3600_000 + 14 * 3600_000).toISOString().slice(0, 19).replace('T', ' ')
    await nx.exec('UPDATE peers SET last_action = ?, started = ?, prev_action = ? WHERE id = ?', [wall, wall, wall, peer])
    const { db, app } = await kit.console_(siteCombinations[0]!.backend, {
      NEXUSPHP_DATABASE_URL: nx.url,
      NEXUSPHP_TIMEZONE: 'Pacific/Kiritimati',
    })
    await addMember(db.database, 'alice', 1001)
    const ran = await app.services.sync.runOnce().then(
      () => null,
      (error: Error) => error.message,
    )
    if (ran !== null) {
      const status = await readSyncStatus({ db: db.database.db, services: app.services, now: Date.now() })
      expect(status.lastError).toMatch(/NEXUSPHP_TIMEZONE/)
      return
    }
    expect(await statuses(db.database)).toEqual({ 'alice:1': Stopped })
  })
})
