/** Rows on their way into the mirror: their type, checks, deduplication; and the transaction they go in. */
import type { Kysely, Selectable } from 'kysely'
import type { DB } from '../../db/schema'
import { byMirrorTable, type MirrorColumn, type MirrorTable, mirrorUniqueKey } from './columns'

/** A full row of each mirror table, as the mirror stores it. */
export type MirrorRows = { [T in MirrorTable]: Selectable<DB[T]> }

/** A row as the writer handles it, whatever its table. */
export type AnyRow = Record<string, unknown>

/** Unique keys besides `id`, by table (see `MirrorTableDefinition.uniqueKey`). */
export const uniqueKeys: Partial<Record<MirrorTable, readonly string[]>> = byMirrorTable(mirrorUniqueKey)

/** Runs `work` in `db` when it is a transaction, else in one. */
export async function inTransaction<R>(db: Kysely<DB>, work: (trx: Kysely<DB>) => Promise<R>): Promise<R> {
  return db.isTransaction ? work(db) : db.transaction().execute(work)
}

export /** Last row wins for a repeated id, and for a repeated unique key (as if applied one after another). */
function dedupe(table: MirrorTable, rows: readonly AnyRow[]): AnyRow[] {
  const key = uniqueKeys[table]
  const byId = new Map<unknown, AnyRow>()
  const byKey = new Map<string, unknown>()
  for (const row of rows) {
    if (key) {
      const k = key.map((c) => String(row[c])).join('\u0000')
      const previous = byKey.get(k)
      if (previous !== undefined && previous !== row.id) byId.delete(previous)
      byKey.set(k, row.id)
    }
    byId.delete(row.id) // re-insert: keeps "last wins" order
    byId.set(row.id, row)
  }
  return [...byId.values()]
}

/**
 * A wrong type would be stored as is by SQLite and refused by PostgreSQL: refuse it on both, by name.
 * Returns the row's values in `columns` order (missing ones as null), for the bulk path.
 */
export function checkedArray(table: MirrorTable, columns: readonly MirrorColumn[], row: AnyRow): (string | number | null)[] {
  const values = new Array<string | number | null>(columns.length)
  for (let i = 0; i < columns.length; i++) {
    const { name, sql: type, nullable } = columns[i]
    const value = row[name]
    if (value === null || value === undefined) {
      if (!nullable) throw new Error(`${table}.${name} must not be empty (id ${String(row.id)})`)
      values[i] = null
    } else if (type !== 'text' ? !Number.isSafeInteger(value) : typeof value !== 'string') {
      throw new Error(
        `${table}.${name} must be ${type !== 'text' ? 'an integer' : 'text'}, got ${JSON.stringify(value)} (id ${String(row.id)})`,
      )
    } else values[i] = value as string | number
  }
  return values
}

export function checkRow(table: MirrorTable, columns: readonly MirrorColumn[], row: AnyRow): void {
  checkedArray(table, columns, row)
}
