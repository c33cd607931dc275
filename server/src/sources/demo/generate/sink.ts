/** Buffered bulk writing for the demo generator, and mirror rows in the mirror's column order. */
import { bulkInsert, type BulkColumns, type BulkRow } from '../../../db/bulk'
import type { AppDatabase } from '../../../db/database'
import type { MirrorRows } from '../../mirror'
import { byMirrorTable, mirrorColumnsOf, type MirrorTable } from '../../mirror/columns'

/** Each mirror table's bulk columns: the mirror's columns with the migrations' SQL types. */
export const mirrorBulkColumns = byMirrorTable((table): BulkColumns => mirrorColumnsOf(table).map(({ name, sql }) => [name, sql] as const))

/** A mirror row as a bulk row (values in the mirror's column order). */
export function mirrorBulkRow<T extends MirrorTable>(table: T, row: MirrorRows[T]): BulkRow {
  const cols = mirrorBulkColumns[table]
  const values: Record<string, string | number | null> = row
  const out = new Array<string | number | null>(cols.length)
  for (let i = 0; i < cols.length; i++) out[i] = values[cols[i][0]]
  return out
}

/** Tables of ours the demo fills next to the mirror. */
export const ownColumns = {
  assignments: [
    ['torrent_id', 'integer'],
    ['user_id', 'integer'],
    ['assigned_at', 'bigint'],
    ['assigned_by', 'integer'],
  ],
  users: [
    ['username', 'text'],
    ['username_lower', 'text'],
    ['password_hash', 'text'],
    ['role', 'text'],
    ['status', 'smallint'],
    ['site_uid', 'integer'],
    ['remark', 'text'],
    ['created_at', 'bigint'],
    ['admin_since', 'bigint'],
    ['last_login_at', 'bigint'],
    ['updated_at', 'bigint'],
  ],
} satisfies Record<string, BulkColumns>

/** Buffers rows per table and writes them in bulk when a buffer is full (bounded memory at 2M records). */
export class Sink {
  private readonly buffers = new Map<string, BulkRow[]>()
  constructor(
    private readonly database: AppDatabase,
    private readonly limit = 100_000,
  ) {}

  /** A mirror row, written in the mirror's column order. */
  async addMirror<T extends MirrorTable>(table: T, row: MirrorRows[T]): Promise<void> {
    await this.add(table, mirrorBulkColumns[table], mirrorBulkRow(table, row))
  }

  async add(table: string, cols: BulkColumns, row: BulkRow): Promise<void> {
    let buffer = this.buffers.get(table)
    if (!buffer) this.buffers.set(table, (buffer = []))
    buffer.push(row)
    if (buffer.length >= this.limit) await this.flush(table, cols)
  }

  async flush(table: string, cols: BulkColumns): Promise<void> {
    const buffer = this.buffers.get(table)
    if (!buffer?.length) return
    this.buffers.set(table, [])
    await bulkInsert(this.database, table, cols, buffer)
  }

  /** Writes what a mirror table's buffer holds. */
  async flushMirror(table: MirrorTable): Promise<void> {
    await this.flush(table, mirrorBulkColumns[table])
  }
}
