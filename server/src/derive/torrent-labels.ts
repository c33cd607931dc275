/**
 * Torrent labels in two steps around the records: seed type first (records copy it), then keepers,
 * completion and assignment label (they count records). Both work on the torrents listed in the
 * scratch table `derive_torrents`, one id range per transaction.
 */
import { type Kysely, sql } from 'kysely'
import { SeedType } from '@shared/enums'
import type { DB } from '../db/schema'
import { inIntegers, int } from '../db/sql-fragments'
import { completionLabelSql } from '../domain/labels'
import { keeperSql } from '../domain/status'
import type { PassContext } from './context'

/**
 * Seed type of `site_torrents t` (with `seed_type_overrides o` left-joined): override > rules. A
 * torrent banned on the site is never official by rule: announce refuses it, nobody can keep it. (The
 * mirror's `banned` includes a torrent refused for its review: sources/nexusphp/reader.ts.)
 */
function seedTypeSql(ctx: PassContext) {
  const officialTeam = inIntegers(sql`t.team`, ctx.officialTeamIds)
  const officialTag = ctx.officialTagIds.length
    ? sql`exists (select 1 from site_torrent_tags tt where tt.torrent_id = t.id and ${inIntegers(sql`tt.tag_id`, ctx.officialTagIds)})`
    : sql`1 = 0`
  return sql<number>`coalesce(o.seed_type, case when t.size >= ${int(ctx.minSizeBytes)} and t.banned = 0 and (${officialTeam} or ${officialTag})
    then ${sql.lit(SeedType.Official)} else ${sql.lit(SeedType.Unofficial)} end)`
}

/** Full pass: every torrent of the mirror, and every label whose torrent may have left it. */
export async function scopeAllTorrents(db: Kysely<DB>): Promise<void> {
  await sql`insert into derive_torrents (torrent_id)
    select id from site_torrents union select torrent_id from torrent_labels`.execute(db)
}

/** Incremental pass: the torrents writers queued (torrent row, tags or override changed). */
export async function scopeQueuedTorrents(db: Kysely<DB>, maxQueueId: number): Promise<void> {
  await sql`insert into derive_torrents (torrent_id)
    select distinct torrent_id from derive_queue where id <= ${maxQueueId} and user_id is null and torrent_id is not null`.execute(db)
}

/** Adds the torrents of the records about to be judged, so their keepers are recounted. */
export async function scopeTorrentsOfWork(db: Kysely<DB>): Promise<void> {
  await sql`insert into derive_torrents (torrent_id) select distinct torrent_id from derive_work where true on conflict do nothing`.execute(
    db,
  )
}

/** Splits `derive_torrents` into id ranges of about `size` torrents. */
export async function torrentRanges(db: Kysely<DB>, size: number): Promise<[number, number][]> {
  const { rows } = await sql<{ torrent_id: number }>`select torrent_id from (
      select torrent_id, row_number() over (order by torrent_id) as rn from derive_torrents) x
    where rn % ${size} = 1 order by torrent_id`.execute(db)
  if (rows.length === 0) return []
  const last = await sql<{ m: number }>`select max(torrent_id) as m from derive_torrents`.execute(db)
  return rows.map((row, i) => [row.torrent_id, i + 1 < rows.length ? rows[i + 1].torrent_id - 1 : Number(last.rows[0].m)])
}

/**
 * Seed type and the mirror's copies for one range. With `flagAffected` (incremental passes), first
 * marks the torrents whose records must be re-judged: new or vanished torrents, and changes of
 * seed type, size, owner or the site's ban — not of seeders or name, which records do not depend on.
 */
export async function labelTorrents(ctx: PassContext, [a, b]: [number, number], flagAffected: boolean): Promise<void> {
  const { db, now } = ctx
  const seedType = seedTypeSql(ctx)
  if (flagAffected) {
    // Driven by the range's few torrents, each joined by its key. (The anti-join form, `not exists`
    // over labels ⋈ torrents matched on four columns, made PostgreSQL estimate one matching row and
    // compare every range torrent with every label: 14 s for 1,910 torrents of a 184,000 site.)
    await sql`update derive_torrents set records_affected = 1 where torrent_id in (
        select d.torrent_id from derive_torrents d
          left join torrent_labels l on l.torrent_id = d.torrent_id
          left join site_torrents t on t.id = d.torrent_id
          left join seed_type_overrides o on o.torrent_id = d.torrent_id
        where d.torrent_id between ${a} and ${b}
          and (l.torrent_id is null or t.id is null or l.size <> t.size or l.owner <> t.owner or l.banned <> t.banned
            or l.seed_type <> ${seedType}))`.execute(db)
  }
  await sql`insert into torrent_labels (torrent_id, seed_type, seed_type_source, owner, banned, name, size, added, seeders, leechers, team, derived_at)
    select t.id, ${seedType}, case when o.torrent_id is null then 'rule' else 'manual' end,
      t.owner, t.banned, t.name, t.size, t.added, t.seeders, t.leechers, t.team, ${int(now)}
    from derive_torrents d join site_torrents t on t.id = d.torrent_id left join seed_type_overrides o on o.torrent_id = t.id
    where d.torrent_id between ${a} and ${b}
    on conflict (torrent_id) do update set seed_type = excluded.seed_type, seed_type_source = excluded.seed_type_source,
      owner = excluded.owner, banned = excluded.banned, name = excluded.name, size = excluded.size, added = excluded.added, seeders = excluded.seeders,
      leechers = excluded.leechers, team = excluded.team, derived_at = excluded.derived_at
    where torrent_labels.seed_type <> excluded.seed_type or torrent_labels.seed_type_source <> excluded.seed_type_source
      or torrent_labels.owner <> excluded.owner or torrent_labels.banned <> excluded.banned or torrent_labels.name <> excluded.name or torrent_labels.size <> excluded.size
      or torrent_labels.added <> excluded.added or torrent_labels.seeders <> excluded.seeders
      or torrent_labels.leechers <> excluded.leechers or torrent_labels.team is distinct from excluded.team`.execute(db)
  await sql`delete from torrent_labels where torrent_id in (select torrent_id from derive_torrents where torrent_id between ${a} and ${b})
    and not exists (select 1 from site_torrents t where t.id = torrent_labels.torrent_id)`.execute(db)
}

/**
 * Completion and assignment label for one range (after the records are judged). `recount`: count
 * keepers and records anew (a full pass, which also repairs any drift); an incremental pass takes
 * them as judgeRange's deltas left them — recounting read every record of ~16,000 torrents after a
 * sync (1.3 s on PostgreSQL of a 4 s pass, whose pages the record writes had just dirtied).
 */
export async function countKeepers(ctx: PassContext, [a, b]: [number, number], recount: boolean): Promise<void> {
  if (!recount) {
    const assigned = sql`case when exists (select 1 from assignments a where a.torrent_id = torrent_labels.torrent_id) then 1 else 2 end`
    const completion = completionLabelSql(sql`torrent_labels.seed_type`, sql`torrent_labels.keepers`, ctx.rules.targetKeepers)
    await sql`update torrent_labels set assigned = ${assigned}, completion = ${completion}, derived_at = ${int(ctx.now)}
      where torrent_id in (select torrent_id from derive_torrents where torrent_id between ${a} and ${b})
        and (torrent_labels.assigned <> ${assigned} or torrent_labels.completion <> ${completion})`.execute(ctx.db)
    return
  }
  const keepers = sql`(select count(*) from seed_records r where r.torrent_id = d.torrent_id and ${keeperSql(sql`r.status`, sql`r.seeding`)})`
  const records = sql`(select count(*) from seed_records r where r.torrent_id = d.torrent_id)`
  const completion = completionLabelSql(sql`torrent_labels.seed_type`, sql`k.keepers`, ctx.rules.targetKeepers)
  await sql`update torrent_labels set keepers = k.keepers, assigned = k.assigned, records = k.records, completion = ${completion}, derived_at = ${int(ctx.now)}
    from (select d.torrent_id, ${keepers} as keepers, ${records} as records,
            case when exists (select 1 from assignments a where a.torrent_id = d.torrent_id) then 1 else 2 end as assigned
          from derive_torrents d where d.torrent_id between ${a} and ${b}) k
    where torrent_labels.torrent_id = k.torrent_id
      and (torrent_labels.keepers <> k.keepers or torrent_labels.assigned <> k.assigned or torrent_labels.records <> k.records
        or torrent_labels.completion <> ${completion})`.execute(ctx.db)
}
