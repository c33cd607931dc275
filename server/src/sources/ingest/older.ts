/**
 * Pushed rows older than the mirror's: a push replayed, or two pushes arriving out of order, must
 * never roll a peer, snatch or claim back (domain.md: counters only grow). A row of the same id is older
 * when its time (a peer's or snatch's last_action, a claim's updated_at) is earlier; for peers and
 * snatches, where the two times are equal, or either is not believed (past the clock: the stored one
 * written before that rule, the incoming one replaced by the source checks), when any of its counters
 * is lower — for one NexusPHP snatch / peer row (one id) those only grow. A row of the same natural key
 * under another id (the site re-created it: its counters may start lower) is older when it was active
 * (peers, snatches: last_action) or created (claims: a re-claim is a new row) earlier — on a tie, when
 * its id is lower; ids alone do not decide, they restart (a MEMORY peers table after a restart, another
 * tracker's numbering).
 */
import { type Kysely, sql } from 'kysely'
import type { DB } from '../../db/schema'
import type { AnyRow } from '../mirror/rows'
import { uniqueKeys, type MirrorTable } from '../mirror'

interface AgeRule {
  /** What dates one id's row: the later is the newer. */
  time: string
  /** Counters that only grow for one row id (NexusPHP's `snatched` and `peers`); a claim has none. */
  counters: readonly string[]
  /** What dates a row of the same natural key under another id. */
  keyTime: string
}

const ageRules: Partial<Record<MirrorTable, AgeRule>> = {
  site_snatched: { time: 'last_action', counters: ['seedtime', 'uploaded', 'downloaded'], keyTime: 'last_action' },
  site_peers: { time: 'last_action', counters: ['uploaded', 'downloaded'], keyTime: 'last_action' },
  site_claims: { time: 'updated_at', counters: [], keyTime: 'created_at' },
}

/** Whether rows of `table` are checked for age at all. */
export function agedTable(table: MirrorTable): boolean {
  return ageRules[table] !== undefined
}

/** The column that dates a row of an aged table (the time the source checks may not believe). */
export function ageColumn(table: MirrorTable): string {
  const rule = ageRules[table]
  if (!rule) throw new Error(`no age rule for ${table}`)
  return rule.time
}

/**
 * SQL that holds when the stored row (`stored`, a table or alias) is newer than the incoming one
 * (`incoming`) of the same id. `latest` (epoch ms): a stored last_action past it is not believed.
 * Trusted text: names and an integer only.
 */
export function storedIsNewer(table: MirrorTable, stored: string, incoming: string, latest: number, countersOnly = false): string {
  const rule = ageRules[table]
  if (!rule || !Number.isSafeInteger(latest)) throw new Error(`no age rule for ${table}`)
  const s = (c: string) => `${stored}."${c}"`
  const e = (c: string) => `${incoming}."${c}"`
  const lower = rule.counters.length ? `(${rule.counters.map((c) => `${e(c)} < ${s(c)}`).join(' or ')})` : 'false'
  // countersOnly: the incoming time was not believed (replaced by the source checks), only its counters tell.
  if (countersOnly) return lower
  const time = rule.time
  return `case when ${s(time)} <= ${latest} and ${s(time)} <> ${e(time)}
    then ${e(time)} < ${s(time)}
    else ${lower} end`
}

/** Rows per lookup statement (the peers' peer_id is its only parameter per row). */
const ROWS_PER_LOOKUP = 5_000

/**
 * The ids of `rows` older than what the mirror holds (see above): one statement per 5,000 rows,
 * run in `db` (the transaction that then writes the rest).
 */
export async function olderIds(
  db: Kysely<DB>,
  table: MirrorTable,
  rows: readonly AnyRow[],
  latest: number,
  countersOnly = false,
): Promise<Set<number>> {
  const older = new Set<number>()
  const rule = ageRules[table]
  if (!rule) return older
  const key = uniqueKeys[table] ?? []
  const columns = [...new Set(['id', rule.time, rule.keyTime, ...rule.counters, ...key])]
  const names = sql.join(columns.map((c) => sql.ref(c)))
  const newer = sql.raw(storedIsNewer(table, 's', 'v', latest, countersOnly))
  for (let i = 0; i < rows.length; i += ROWS_PER_LOOKUP) {
    const chunk = rows.slice(i, i + ROWS_PER_LOOKUP)
    // Integers inline (PostgreSQL types a bare parameter in VALUES as text); text (peer_id) as a parameter.
    const values = sql.join(
      chunk.map((r) => sql`(${sql.join(columns.map((c) => (typeof r[c] === 'number' ? sql.lit(r[c]) : sql`${r[c]}`)))})`),
    )
    // Not for rows whose time was not believed: their time says nothing of which row is the later.
    const keyTime = sql.ref(rule.keyTime)
    const sameKey =
      key.length && !countersOnly
        ? sql`union select v.id from v join ${sql.table(table)} s on ${sql.join(
            key.map((c) => sql`s.${sql.ref(c)} = v.${sql.ref(c)}`),
            sql` and `,
          )} where s.id <> v.id and (s.${keyTime} > v.${keyTime} or (s.${keyTime} = v.${keyTime} and s.id > v.id))`
        : sql``
    const { rows: found } = await sql<{ id: number | string }>`with v (${names}) as (values ${values})
      select v.id from v join ${sql.table(table)} s on s.id = v.id where ${newer} ${sameKey}`.execute(db)
    for (const r of found) older.add(Number(r.id))
  }
  return older
}
