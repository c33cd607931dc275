/**
 * The push-ingest format (POST /api/v1/ingest/snapshot): the mirror's entities as JSON, with
 * NexusPHP's field names, so a tracker that is not NexusPHP can feed the mirror. Each row is checked
 * on its own (a bad row is reported, the good ones land) and converted to mirror terms.
 *
 * - Times: ISO 8601 with an offset ("2026-11-01T08:00:00+08:00") or Unix seconds.
 * - yes/no columns: "yes" | "no". Binary hashes (info_hash, peer_id): 40 hex digits.
 * - Counters and ids: non-negative integers (ids positive), within the mirror column's range
 *   (ids and counts of torrents, users, tags… up to 2,147,483,647; byte counts and peer ids larger).
 */
import { z } from '@shared/validation'
import type { MirrorRows } from '../mirror'
import type { MirrorColumnName, MirrorTable } from '../mirror/columns'

/**
 * A push that leaves out `to_go` (bytes left): 0 only for a row that says it is complete (a
 * seeder, a finished snatch), else 1 — "some left". A default of 0 would make every such snatch
 * count as complete (a snatch with to_go = 0 is complete even when not finished).
 */
function bytesLeftUnknown(complete: boolean): number {
  return complete ? 0 : 1
}

/** The largest value of PostgreSQL's `integer` (the mirror's ids and counts of torrents, users, tags…). */
const INT4_MAX = 2_147_483_647
const id = z.number().int().positive().max(INT4_MAX)
/** Ids the mirror keeps as bigint (peers, snatches, claims). */
const bigId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER)
const ref = z.number().int().nonnegative().max(INT4_MAX)
const count = z.number().int().nonnegative().max(INT4_MAX)
/** Bytes and seconds (bigint columns). */
const counter = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)
const int4 = z.number().int().min(-INT4_MAX).max(INT4_MAX)
const yesNo = z.enum(['yes', 'no'])
const hex40 = z
  .string()
  .regex(/^[0-9a-fA-F]{40}$/, { message: '应为 40 位十六进制' })
  .transform((value) => value.toLowerCase())
/** ISO 8601 with an offset, or Unix seconds → epoch ms. */
const time = z.union(
  [
    z.iso.datetime({ offset: true }).transform((value) => Date.parse(value)),
    z
      .number()
      .int()
      .nonnegative()
      .max(32_503_680_000)
      .transform((seconds) => seconds * 1000),
  ],
  { error: '应为带时区的 ISO 8601 时间（如 2026-11-01T08:00:00+08:00）或 Unix 秒数' },
)
const text = (max: number) => z.string().max(max)

/**
 * How the push format gives each column of a mirror table: every column, and only those (the
 * mirror's column list is in mirror/columns.ts).
 */
type Fields<T extends MirrorTable> = { [C in MirrorColumnName<T>]: z.ZodType }

const named = z.object({ id, name: text(255).min(1), sort_index: int4.default(0) } satisfies Fields<'site_teams'>)
const bool = (value: 'yes' | 'no') => (value === 'yes' ? 1 : 0)

/** One schema per entity: parses a row as the tracker sends it into a mirror row. */
export const ingestRowSchemas = {
  users: z
    .object({
      id,
      username: text(255).min(1),
      class: int4.default(0),
      enabled: yesNo.default('yes'),
      status: z.enum(['pending', 'confirmed']).default('confirmed'),
      added: time,
      last_access: time.nullable().default(null),
    } satisfies Fields<'site_users'>)
    .transform((r): MirrorRows['site_users'] => ({ ...r, enabled: bool(r.enabled) })),
  teams: named,
  categories: named,
  tags: named,
  torrents: z
    .object({
      id,
      info_hash: hex40,
      name: text(1000).min(1),
      size: counter,
      category: ref.nullable().default(null),
      team: ref.nullable().default(null),
      added: time,
      seeders: count.default(0),
      leechers: count.default(0),
      times_completed: count.default(0),
      owner: ref.default(0),
      visible: yesNo.default('yes'),
      banned: yesNo.default('no'),
    } satisfies Fields<'site_torrents'>)
    .transform((r): MirrorRows['site_torrents'] => ({ ...r, visible: bool(r.visible), banned: bool(r.banned) })),
  torrent_tags: z.object({ id, torrent_id: id, tag_id: id } satisfies Fields<'site_torrent_tags'>),
  peers: z
    .object({
      id: bigId,
      torrent: id,
      peer_id: hex40,
      ip: text(64).default(''),
      port: z.number().int().min(0).max(65_535).default(0),
      uploaded: counter.default(0),
      downloaded: counter.default(0),
      to_go: counter.optional(),
      seeder: yesNo,
      started: time,
      last_action: time,
      prev_action: time.optional(),
      connectable: yesNo.default('yes'),
      userid: id,
      agent: text(255).default(''),
      finishedat: time.nullable().default(null),
    } satisfies Fields<'site_peers'>)
    .transform((r): MirrorRows['site_peers'] => ({
      ...r,
      to_go: r.to_go ?? bytesLeftUnknown(r.seeder === 'yes'),
      prev_action: r.prev_action ?? r.last_action,
      seeder: bool(r.seeder),
      connectable: bool(r.connectable),
    })),
  snatches: z
    .object({
      id: bigId,
      torrentid: id,
      userid: id,
      ip: text(64).default(''),
      port: z.number().int().min(0).max(65_535).default(0),
      uploaded: counter.default(0),
      downloaded: counter.default(0),
      to_go: counter.optional(),
      seedtime: counter.default(0),
      leechtime: counter.default(0),
      last_action: time,
      startdat: time,
      completedat: time.nullable().default(null),
      finished: yesNo,
    } satisfies Fields<'site_snatched'>)
    .transform((r): MirrorRows['site_snatched'] => ({
      ...r,
      to_go: r.to_go ?? bytesLeftUnknown(r.finished === 'yes'),
      finished: bool(r.finished),
    })),
  claims: z
    .object({
      id: bigId,
      uid: id,
      torrent_id: id,
      snatched_id: bigId.nullable().default(null),
      seed_time_begin: counter.default(0),
      uploaded_begin: counter.default(0),
      last_settle_at: time.nullable().default(null),
      created_at: time,
      // NexusPHP's claims row before the site ever settled it may have none: its creation, as the NexusPHP reader does.
      updated_at: time.nullable().optional(),
    } satisfies Fields<'site_claims'>)
    .transform((claim) => ({ ...claim, updated_at: claim.updated_at ?? claim.created_at })),
} as const

export type IngestEntity = keyof typeof ingestRowSchemas

/** Entities in the order they are written (what others refer to first) and their mirror table. */
export const ingestEntities: readonly (readonly [IngestEntity, MirrorTable])[] = [
  ['users', 'site_users'],
  ['teams', 'site_teams'],
  ['categories', 'site_categories'],
  ['tags', 'site_tags'],
  ['torrents', 'site_torrents'],
  ['torrent_tags', 'site_torrent_tags'],
  ['snatches', 'site_snatched'],
  ['peers', 'site_peers'],
  ['claims', 'site_claims'],
]

/** Rows a peer or claim may be removed by (a client's stop event, an un-claim, an untagging). */
export const deletableEntities = ['peers', 'claims', 'torrent_tags'] as const
export type DeletableEntity = (typeof deletableEntities)[number]

/** Rows per entity in one request. */
export const MAX_ROWS_PER_ENTITY = 50_000

/**
 * The envelope of a snapshot: each entity an array of rows (checked row by row later), plus ids to
 * delete. Anything else in the body is refused as a whole (a typo in an entity name must not pass).
 */
export const ingestSnapshotSchema = z.strictObject({
  ...(Object.fromEntries(ingestEntities.map(([entity]) => [entity, z.array(z.unknown()).max(MAX_ROWS_PER_ENTITY).optional()])) as Record<
    IngestEntity,
    z.ZodOptional<z.ZodArray<z.ZodUnknown>>
  >),
  // Ids checked one by one too (ingest.ts): one malformed id refused the whole push — its rows and its other deletes.
  deleted: z
    .strictObject(
      Object.fromEntries(deletableEntities.map((entity) => [entity, z.array(z.unknown()).max(MAX_ROWS_PER_ENTITY).optional()])) as Record<
        DeletableEntity,
        z.ZodOptional<z.ZodArray<z.ZodUnknown>>
      >,
    )
    .optional(),
})
export type IngestSnapshot = z.infer<typeof ingestSnapshotSchema>

/** One id of `deleted`: the rows' own id rule. */
export const deletedIdSchema = bigId
