/** SQL pieces of the demo's sync: deterministic pseudo-randomness in SQL, id ranges, largest ids. */
import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { DialectName } from '../../../db/database'
import type { DB } from '../../../db/schema'

/** Deterministic pseudo-random 0..9999 of an integer column and a salt (portable integer arithmetic). */
export function rnd(column: RawBuilder<unknown>, salt: number): RawBuilder<number> {
  return sql<number>`(((cast(${column} as bigint) * 2654435761 + ${sql.lit(salt)}) % 1000003) * 7919 + ${sql.lit((salt * 31) % 100_000)}) % 10000`
}

/** 40 hex digits from an integer (a peer_id of the demo). */
export function hex40(dialect: DialectName, value: RawBuilder<unknown>): RawBuilder<string> {
  return dialect === 'postgres'
    ? sql<string>`lpad(to_hex(cast(${value} as bigint) * 2654435761), 40, '0')`
    : sql<string>`printf('%040x', ${value} * 2654435761)`
}

/** Ids per statement of the steps that touch many rows: each is synchronous on SQLite and holds every request for its length. */
const ID_RANGE = 25_000

/** (lo, hi] ranges of ID_RANGE ids covering `table` as it is now (rows added later in the sync are not in them). */
export async function idRanges(db: Kysely<DB>, table: 'site_peers'): Promise<[number, number][]> {
  const max = await maxId(db, table)
  const out: [number, number][] = []
  for (let lo = 0; lo < max; lo += ID_RANGE) out.push([lo, Math.min(max, lo + ID_RANGE)])
  return out
}

export async function maxId(
  db: Kysely<DB>,
  table: 'site_peers' | 'site_claims' | 'site_snatched' | 'site_torrents' | 'site_torrent_tags',
): Promise<number> {
  const { rows } = await sql<{ m: number | null }>`select max(id) as m from ${sql.table(table)}`.execute(db)
  return Number(rows[0]?.m ?? 0)
}

export function hashSeed(seed: string): number {
  let h = 0
  for (let i = 0; i < seed.length; i++) h = (h * 31 + seed.charCodeAt(i)) % 1_000_003
  return h
}
