/**
 * PostgreSQL's full pass: every record judged by a few whole-table statements in ONE transaction.
 *
 * Why a second form: PostgreSQL joins whole tables with hashes and merges, so cutting a full pass
 * into member ranges makes each range scan the sources again (measured at 2,000,000 records:
 * ~130 s in ranges against ~20 s in one go). And it can afford one transaction: readers keep
 * seeing the previous state (MVCC) until the commit, so every total stays exact without deltas.
 * SQLite keeps the ranged form (its only connection would be held for the whole pass, and its
 * nested-loop joins do not care). Both build the record from the same `recordValuesSql`.
 */
import { sql } from 'kysely'
import { int } from '../db/sql-fragments'
import { keeperSql } from '../domain/status'
import { completionLabelSql } from '../domain/labels'
import type { PassContext } from './context'
import { rebuildCounts } from './counts'
import { clearScratch, inTransaction, type PassRun } from './pass'
import { departedUploadsFrom } from './departed'
import { derivedRecordColumns, recordValuesSql } from './records'
import { analyzeScratch } from './scope'
import { noteSnatchRestarts } from './snatch-restarts'
import { labelTorrents, scopeAllTorrents } from './torrent-labels'

export interface WholePassOutcome {
  judged: number
  changed: number
}

const columns = derivedRecordColumns

/**
 * The whole pass in one transaction: every torrent labelled, every record judged, the counts rebuilt,
 * the queue emptied. Returns the torrents labelled and the pairs judged and records changed.
 */
export async function deriveWhole({ ctx, finish, lap, progress }: PassRun): Promise<WholePassOutcome & { torrents: number }> {
  const outcome = await inTransaction(ctx, async (trx) => {
    const inner = { ...ctx, db: trx }
    await clearScratch(inner)
    await scopeAllTorrents(trx)
    await analyzeScratch(inner, 'derive_torrents')
    const bounds = (
      await sql<{
        lo: number | null
        hi: number | null
      }>`select min(torrent_id) as lo, max(torrent_id) as hi from derive_torrents`.execute(trx)
    ).rows[0]
    if (bounds?.lo != null && bounds.hi != null) await labelTorrents(inner, [Number(bounds.lo), Number(bounds.hi)], false)
    const torrents = Number((await sql<{ n: number }>`select count(*) as n from derive_torrents`.execute(trx)).rows[0].n)
    lap('torrents')
    const { judged, changed } = await judgeEverything(inner)
    lap('records')
    await finish(trx, false) // judgeEverything rebuilt the counts
    lap('finish')
    return { torrents, judged, changed }
  })
  progress('records', 1, 1)
  return outcome
}

/** Runs inside the caller's transaction, after the torrent labels' seed types are current. */
export async function judgeEverything(ctx: PassContext): Promise<WholePassOutcome> {
  const { db, now, since } = ctx
  await sql`truncate derive_batch`.execute(db)

  const record = recordValuesSql(ctx, {
    userId: sql`x.user_id`,
    peer: sql`x.peer`,
    peerLeeching: sql`x.leeching`,
    peerSeeding: sql`x.seeding`,
    peerLastAction: sql`x.p_last`,
    peerUploaded: sql`x.p_uploaded`,
    peerDownloaded: sql`x.p_downloaded`,
    snatch: sql`x.snatch_id`,
    snatchFinished: sql`x.finished`,
    snatchToGo: sql`x.s_to_go`,
    snatchUploaded: sql`x.s_uploaded`,
    snatchDownloaded: sql`x.s_downloaded`,
    snatchSeedtime: sql`x.seedtime`,
    snatchLastAction: sql`x.s_last`,
    claim: sql`x.claim_id`,
    claimedAt: sql`x.claimed_at`,
    assignment: sql`x.assign_id`,
    assignedAt: sql`x.assigned_at`,
  })

  // Every tie, as one row per (member, torrent): the site's rows are keyed by site uid and outer-
  // joined (snatch, peers, claim), then mapped to members and outer-joined with assignments and
  // uploads.
  const judged = await sql`with peers as (
      select userid, torrent, 1 as peer,
        max(case when last_action >= ${int(since)} and to_go > 0 then 1 else 0 end) as leeching,
        max(case when last_action >= ${int(since)} and seeder = 1 then 1 else 0 end) as seeding,
        max(last_action) as p_last, max(uploaded) as p_uploaded, max(downloaded) as p_downloaded
      from site_peers group by userid, torrent),
    site_ties as (
      select coalesce(s.userid, p.userid, c.uid) as uid, coalesce(s.torrentid, p.torrent, c.torrent_id) as torrent_id,
        s.id as snatch_id, s.finished, s.to_go as s_to_go, s.uploaded as s_uploaded, s.downloaded as s_downloaded, s.seedtime, s.last_action as s_last,
        p.peer, p.leeching, p.seeding, p.p_last, p.p_uploaded, p.p_downloaded, c.id as claim_id, c.created_at as claimed_at
      from site_snatched s
        full join peers p on p.userid = s.userid and p.torrent = s.torrentid
        full join site_claims c on c.uid = coalesce(s.userid, p.userid) and c.torrent_id = coalesce(s.torrentid, p.torrent)),
    member_ties as (
      select m.id as user_id, t.* from site_ties t join users m on m.site_uid = t.uid),
    uploads as (
      select m.id as user_id, t.id as torrent_id from site_torrents t join users m on m.site_uid = t.owner where t.owner > 0),
    x as (
      select coalesce(mt.user_id, a.user_id, up.user_id) as user_id, coalesce(mt.torrent_id, a.torrent_id, up.torrent_id) as torrent_id,
        mt.snatch_id, mt.finished, mt.s_to_go, mt.s_uploaded, mt.s_downloaded, mt.seedtime, mt.s_last,
        mt.peer, mt.leeching, mt.seeding, mt.p_last, mt.p_uploaded, mt.p_downloaded, mt.claim_id, mt.claimed_at,
        a.id as assign_id, a.assigned_at
      from member_ties mt
        full join assignments a on a.user_id = mt.user_id and a.torrent_id = mt.torrent_id
        full join uploads up on up.user_id = coalesce(mt.user_id, a.user_id) and up.torrent_id = coalesce(mt.torrent_id, a.torrent_id))
    insert into derive_batch (user_id, torrent_id, ${sql.join(columns.map((c) => sql.ref(c)))})
    select x.user_id, x.torrent_id, ${record.values}
    from x join users u on u.id = x.user_id join torrent_labels l on l.torrent_id = x.torrent_id
    where ${record.tied}`.execute(db)
  await sql`analyze derive_batch`.execute(db)

  await noteSnatchRestarts(ctx, sql`1 = 1`)
  const differs = sql.join(
    columns.map((c) => sql`r.${sql.ref(c)} <> b.${sql.ref(c)}`),
    sql` or `,
  )
  const updated =
    await sql`update seed_records r set ${sql.join(columns.map((c) => sql`${sql.ref(c)} = b.${sql.ref(c)}`))}, derived_at = ${int(now)}
    from derive_batch b where r.user_id = b.user_id and r.torrent_id = b.torrent_id and (${differs})`.execute(db)
  const inserted = await sql`insert into seed_records (user_id, torrent_id, ${sql.join(columns.map((c) => sql.ref(c)))}, derived_at)
    select b.user_id, b.torrent_id, ${sql.join(columns.map((c) => sql.ref(`b.${c}`)))}, ${int(now)}
    from derive_batch b
    where not exists (select 1 from seed_records r where r.user_id = b.user_id and r.torrent_id = b.torrent_id)`.execute(db)
  // The records whose tie is gone, and what they had uploaded kept per member (derive/departed.ts), in one scan.
  const gone = await sql<{ n: number | string }>`with gone as (
      delete from seed_records r
      where not exists (select 1 from derive_batch b where b.user_id = r.user_id and b.torrent_id = r.torrent_id)
      returning r.user_id, r.uploaded),
    noted as (${departedUploadsFrom(sql`gone`)})
    select count(*) as n from gone`.execute(db)
  await sql`truncate derive_batch`.execute(db)

  await rebuildCounts(db)
  // Keepers, record counts, completion and assignment label of every torrent, in one aggregate.
  const completion = completionLabelSql(sql`torrent_labels.seed_type`, sql`k.keepers`, ctx.rules.targetKeepers)
  await sql`update torrent_labels set keepers = k.keepers, records = k.records, assigned = k.assigned, completion = ${completion},
      derived_at = ${int(now)}
    from (select l.torrent_id, coalesce(r.keepers, 0) as keepers, coalesce(r.records, 0) as records,
            case when a.torrent_id is null then 2 else 1 end as assigned
          from torrent_labels l
            left join (select torrent_id, count(*) as records,
                         sum(case when ${keeperSql(sql`status`, sql`seeding`)} then 1 else 0 end) as keepers
                       from seed_records group by torrent_id) r on r.torrent_id = l.torrent_id
            left join (select distinct torrent_id from assignments) a on a.torrent_id = l.torrent_id) k
    where torrent_labels.torrent_id = k.torrent_id
      and (torrent_labels.keepers <> k.keepers or torrent_labels.records <> k.records or torrent_labels.assigned <> k.assigned
        or torrent_labels.completion <> ${completion})`.execute(db)

  const count = (r: { numAffectedRows?: bigint }) => Number(r.numAffectedRows ?? 0)
  return { judged: count(judged), changed: count(updated) + count(inserted) + Number(gone.rows[0]?.n ?? 0) }
}
