/**
 * A tiny hand-made site for derivation and API tests: members, torrents, peers, snatches, claims
 * and assignments written the way a source writes them (mirror rows + queue entries).
 *
 *   const w = new SeedingWorld(db)
 *   const alice = await w.member('alice', 1001)
 *   await w.torrent(1, { size: 5 * GIB })
 *   await w.peer(1001, 1, { seeder: true, lastAction: now })
 *   await derive(database, { now })
 */
import { type Kysely, sql } from 'kysely'
import type { AccountStatus, Role } from '@shared/enums'
import type { DB } from '../db/schema'
import { queueMembers, queuePairs, queueTorrents } from '../derive/queue'
import { GIB } from '../rules/rules'
import { mirrorTables } from '../sources/mirror/columns'

/** Every table the seeding data lives in (cleared between tests that share a database). */
export const seedingTables = [
  ...mirrorTables,
  'assignments',
  'seed_type_overrides',
  'seed_records',
  'torrent_labels',
  'seed_record_counts',
  'member_seed_stats',
  'counter_snapshots',
  'torrent_seeder_snapshots',
  'month_end_ties',
  'month_end_accounts',
  'site_uid_changes',
  'record_rebases',
  'snatch_restarts',
  'daily_member_stats',
  'daily_team_stats',
  'stats_cache',
  'derive_queue',
  'derive_work',
  'derive_torrents',
  'derive_batch',
] as const

export async function clearSeedingData(db: Kysely<DB>): Promise<void> {
  for (const table of seedingTables) await sql`delete from ${sql.table(table)}`.execute(db)
  await db.deleteFrom('rule_versions').where('version', '>', 1).execute()
  await db
    .updateTable('sync_state')
    .set({ derived_at: null, derived_rules_version: null, last_snapshot_day: null })
    .where('id', '=', 1)
    .execute()
  await db.deleteFrom('sessions').execute()
  await db.deleteFrom('users').where('username', '<>', 'admin').execute()
}

export class SeedingWorld {
  private nextId = 1

  constructor(private readonly db: Kysely<DB>) {}

  private id(): number {
    return this.nextId++
  }

  async member(
    username: string,
    siteUid: number | null,
    options: { status?: AccountStatus; role?: Role; passwordHash?: string; siteEnabled?: boolean } = {},
  ): Promise<number> {
    const now = Date.UTC(2025, 0, 1)
    const row = await this.db
      .insertInto('users')
      .values({
        username,
        username_lower: username.toLowerCase(),
        password_hash: options.passwordHash ?? 'x',
        role: options.role ?? 'normal',
        status: options.status ?? 2,
        site_uid: siteUid,
        created_at: now,
        admin_since: options.role === 'admin' ? now : null,
        last_login_at: null,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    if (siteUid !== null) {
      await this.db
        .insertInto('site_users')
        .values({ id: siteUid, username, enabled: options.siteEnabled === false ? 0 : 1, added: now, last_access: null })
        .onConflict((oc) => oc.doNothing())
        .execute()
    }
    await queueMembers(this.db, [row.id])
    return row.id
  }

  async setMemberStatus(userId: number, status: AccountStatus): Promise<void> {
    await this.db.updateTable('users').set({ status }).where('id', '=', userId).execute()
    await queueMembers(this.db, [userId])
  }

  async team(id: number, name: string): Promise<void> {
    await this.db.insertInto('site_teams').values({ id, name }).execute()
  }

  async tag(id: number, name: string): Promise<void> {
    await this.db.insertInto('site_tags').values({ id, name }).execute()
  }

  async torrent(
    id: number,
    options: {
      size?: number
      team?: number | null
      owner?: number
      tags?: number[]
      name?: string
      added?: number
      seeders?: number
      banned?: boolean
    } = {},
  ): Promise<void> {
    await this.db
      .insertInto('site_torrents')
      .values({
        id,
        info_hash: id.toString(16).padStart(40, '0'),
        name: options.name ?? `Torrent.${id}.2024.1080p.WEB-DL.x264-Test`,
        size: Math.round(options.size ?? 5 * GIB),
        category: null,
        team: options.team ?? null,
        added: options.added ?? Date.UTC(2024, 0, 1),
        seeders: options.seeders ?? 0,
        owner: options.owner ?? 0,
        banned: options.banned ? 1 : 0,
      })
      .execute()
    for (const tag of options.tags ?? [])
      await this.db.insertInto('site_torrent_tags').values({ id: this.id(), torrent_id: id, tag_id: tag }).execute()
    await queueTorrents(this.db, [id])
  }

  async updateTorrent(
    id: number,
    set: { size?: number; team?: number | null; owner?: number; name?: string; seeders?: number },
  ): Promise<void> {
    await this.db
      .updateTable('site_torrents')
      .set(set.size === undefined ? set : { ...set, size: Math.round(set.size) })
      .where('id', '=', id)
      .execute()
    await queueTorrents(this.db, [id])
  }

  async override(torrentId: number, seedType: 1 | 2 | null): Promise<void> {
    if (seedType === null) await this.db.deleteFrom('seed_type_overrides').where('torrent_id', '=', torrentId).execute()
    else
      await this.db
        .insertInto('seed_type_overrides')
        .values({ torrent_id: torrentId, seed_type: seedType, set_at: 0, set_by: null })
        .onConflict((oc) => oc.column('torrent_id').doUpdateSet({ seed_type: seedType }))
        .execute()
    await queueTorrents(this.db, [torrentId])
  }

  private async queueSite(siteUid: number, torrentId: number): Promise<void> {
    const member = await this.db.selectFrom('users').select('id').where('site_uid', '=', siteUid).executeTakeFirst()
    if (member) await queuePairs(this.db, [{ userId: member.id, torrentId }])
  }

  async peer(
    siteUid: number,
    torrentId: number,
    options: { seeder: boolean; lastAction: number; toGo?: number; uploaded?: number },
  ): Promise<number> {
    const id = this.id()
    await this.db
      .insertInto('site_peers')
      .values({
        id,
        torrent: torrentId,
        peer_id: id.toString(16).padStart(40, '0'),
        uploaded: options.uploaded ?? 0,
        to_go: options.toGo ?? (options.seeder ? 0 : GIB),
        seeder: options.seeder ? 1 : 0,
        started: options.lastAction - 3600_000,
        last_action: options.lastAction,
        prev_action: options.lastAction - 1800_000,
        userid: siteUid,
        finishedat: null,
      })
      .execute()
    await this.queueSite(siteUid, torrentId)
    return id
  }

  async removePeer(peerId: number): Promise<void> {
    const peer = await this.db.selectFrom('site_peers').select(['userid', 'torrent']).where('id', '=', peerId).executeTakeFirstOrThrow()
    await this.db.deleteFrom('site_peers').where('id', '=', peerId).execute()
    await this.queueSite(peer.userid, peer.torrent)
  }

  /** `toGo`: bytes left (default 0 when finished, else 1 GiB — announce's `left`). */
  async snatch(
    siteUid: number,
    torrentId: number,
    options: { finished: boolean; toGo?: number; uploaded?: number; seedtime?: number; lastAction?: number },
  ): Promise<void> {
    const at = options.lastAction ?? Date.UTC(2024, 5, 1)
    await this.db
      .insertInto('site_snatched')
      .values({
        id: this.id(),
        torrentid: torrentId,
        userid: siteUid,
        uploaded: options.uploaded ?? 0,
        downloaded: 0,
        to_go: options.toGo ?? (options.finished ? 0 : GIB),
        seedtime: options.seedtime ?? 0,
        last_action: at,
        startdat: at - 86_400_000,
        completedat: options.finished ? at : null,
        finished: options.finished ? 1 : 0,
      })
      .execute()
    await this.queueSite(siteUid, torrentId)
  }

  /** The site deletes the member's snatched row and the next announce writes a new one at `at` (new id, counters from 0). */
  async recreateSnatch(siteUid: number, torrentId: number, at: number): Promise<void> {
    await this.db.deleteFrom('site_snatched').where('userid', '=', siteUid).where('torrentid', '=', torrentId).execute()
    await this.db
      .insertInto('site_snatched')
      .values({
        id: this.id(),
        torrentid: torrentId,
        userid: siteUid,
        uploaded: 0,
        downloaded: 0,
        to_go: 0,
        seedtime: 0,
        last_action: at,
        startdat: at,
        completedat: at,
        finished: 1,
      })
      .execute()
    await this.queueSite(siteUid, torrentId)
  }

  async updateSnatch(siteUid: number, torrentId: number, set: { uploaded?: number; seedtime?: number }): Promise<void> {
    await this.db.updateTable('site_snatched').set(set).where('userid', '=', siteUid).where('torrentid', '=', torrentId).execute()
    await this.queueSite(siteUid, torrentId)
  }

  async claim(siteUid: number, torrentId: number, createdAt = Date.UTC(2024, 6, 1)): Promise<void> {
    await this.db
      .insertInto('site_claims')
      .values({
        id: this.id(),
        uid: siteUid,
        torrent_id: torrentId,
        snatched_id: null,
        last_settle_at: null,
        created_at: createdAt,
        updated_at: createdAt,
      })
      .execute()
    await this.queueSite(siteUid, torrentId)
  }

  async assign(userId: number, torrentId: number, at = Date.UTC(2024, 7, 1)): Promise<void> {
    await this.db.insertInto('assignments').values({ torrent_id: torrentId, user_id: userId, assigned_at: at, assigned_by: null }).execute()
    await queuePairs(this.db, [{ userId, torrentId }])
  }

  async unassign(userId: number, torrentId: number): Promise<void> {
    await this.db.deleteFrom('assignments').where('user_id', '=', userId).where('torrent_id', '=', torrentId).execute()
    await queuePairs(this.db, [{ userId, torrentId }])
  }

  async record(userId: number, torrentId: number) {
    return this.db
      .selectFrom('seed_records')
      .selectAll()
      .where('user_id', '=', userId)
      .where('torrent_id', '=', torrentId)
      .executeTakeFirst()
  }

  async label(torrentId: number) {
    return this.db.selectFrom('torrent_labels').selectAll().where('torrent_id', '=', torrentId).executeTakeFirstOrThrow()
  }
}
