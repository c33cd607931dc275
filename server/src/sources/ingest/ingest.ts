/**
 * Applies a pushed snapshot to the mirror: every row checked on its own, the good rows of each
 * entity written in one transaction (all of that entity's good rows or none), the derivation queued
 * with them (mirror.ts). A repeated id in one request: the last row wins, the earlier is reported.
 */
import type { Kysely } from 'kysely'
import { formatZodError } from '@shared/validation'
import type { DB } from '../../db/schema'
import { deleteMirror, upsertMirror, type MirrorRows, type MirrorTable } from '../mirror'
import { deletableEntities, ingestEntities, ingestRowSchemas, type IngestEntity, type IngestSnapshot } from './schema'

export interface RejectedRow {
  entity: IngestEntity
  /** Position of the row in its array (0-based). */
  index: number
  id: number | null
  reason: string
}

export interface IngestOutcome {
  /** Rows that passed the checks and are now in the mirror, per entity (unchanged rows included). */
  accepted: Record<IngestEntity, number>
  /** Rows that changed the mirror (a repeated push of the same rows writes nothing). */
  written: Record<IngestEntity, number>
  deleted: Record<(typeof deletableEntities)[number], number>
  rejected: RejectedRow[]
}

const deletableTables: Record<(typeof deletableEntities)[number], MirrorTable> = {
  peers: 'site_peers',
  claims: 'site_claims',
  torrent_tags: 'site_torrent_tags',
}

/** Rejected rows reported in one answer (a wholly wrong batch must not make a huge answer). */
export const MAX_REJECTED_REPORTED = 1_000

export async function applySnapshot(db: Kysely<DB>, snapshot: IngestSnapshot): Promise<IngestOutcome & { rejectedTotal: number }> {
  const accepted = {} as Record<IngestEntity, number>
  const written = {} as Record<IngestEntity, number>
  const rejected: RejectedRow[] = []
  let rejectedTotal = 0
  const reject = (row: RejectedRow) => {
    rejectedTotal++
    if (rejected.length < MAX_REJECTED_REPORTED) rejected.push(row)
  }

  for (const [entity, table] of ingestEntities) {
    accepted[entity] = 0
    written[entity] = 0
    const input = snapshot[entity]
    if (!input?.length) continue
    const schema = ingestRowSchemas[entity]
    const good = new Map<number, { index: number; row: MirrorRows[MirrorTable] }>()
    input.forEach((raw, index) => {
      const parsed = schema.safeParse(raw)
      const rawId = typeof raw === 'object' && raw !== null && Number.isSafeInteger((raw as { id?: unknown }).id) ? (raw as { id: number }).id : null
      if (!parsed.success) return reject({ entity, index, id: rawId, reason: formatZodError(parsed.error) })
      const row = parsed.data as MirrorRows[MirrorTable]
      const earlier = good.get(row.id)
      if (earlier) reject({ entity, index: earlier.index, id: row.id, reason: `id 与第 ${index + 1} 行重复，以后者为准` })
      good.set(row.id, { index, row })
    })
    const rows = [...good.values()].map((entry) => entry.row)
    written[entity] = await upsertMirror(db, table, rows as never)
    accepted[entity] = rows.length
  }

  const deleted = {} as IngestOutcome['deleted']
  for (const entity of deletableEntities) {
    const ids = snapshot.deleted?.[entity] ?? []
    deleted[entity] = ids.length ? await deleteMirror(db, deletableTables[entity], [...new Set(ids)]) : 0
  }
  return { accepted, written, deleted, rejected, rejectedTotal }
}
