/**
 * The context every step of one NexusPHP sync shares: the source, our database, the loaded state,
 * and the one way a step writes — a page and the state that records it in one transaction
 * (`commit`), through the mirror writer (`upsert`, `insertFresh`, `remove`) — counted per table.
 */
import { performance } from 'node:perf_hooks'
import type { Kysely } from 'kysely'
import type { DB } from '../../../db/schema'
import { writeSourceState } from '../../../db/source-state'
import { deleteMirror, insertMirrorFresh, type MirrorRows, type MirrorTable, upsertMirror } from '../../mirror'
import type { SiteDataNote, SourceSyncContext } from '../../source'
import type { NexusphpConnection } from '../connection'
import { checkSourceRows } from '../reader'
import type { MemberIndexes, SourceEngines, SourceSchema, SourceTable } from '../schema-check'
import { WindowPace } from './pace'
import { ReadAhead } from './read-ahead'
import { chunks } from '../../../util/chunks'
import { type NexusphpState, type NexusphpSyncTuning, notesKeptMs } from './state'

/** Epoch ms → the seconds FROM_UNIXTIME takes. */
export function fromUnix(ms: number): number {
  return Math.max(0, ms) / 1000
}

/** The column of each members' table that names the torrent. */
const torrentColumn: Partial<Record<MirrorTable, string>> = { site_peers: 'torrent', site_snatched: 'torrentid', site_claims: 'torrent_id' }

export class SyncSession {
  /** Rows written (and deleted) per mirror table: what the sync reports. */
  readonly rows: Record<string, number> = {}
  /** Messages of `state.notes` this sync met (their counts start over with it). */
  private readonly noted = new Set<string>()
  /** When the sync started here (performance.now()): the site's clock now is `ctx.now` plus the time since. */
  private readonly startedAt = performance.now()
  readonly db: Kysely<DB>
  /** The next derivation judges everything: rows written fresh need no queue rows of their own. */
  fullPass = false
  /** Torrents and tags go the bulk path: first import (FTS triggers dropped) before a full pass. */
  freshTorrents = false
  /** Mirror tables whose unique key the first import drops until the end (run.ts). */
  keysDeferred: ReadonlySet<MirrorTable> = new Set()
  /** Torrents that members' rows written in this sync point at (referencedTorrents looks for them). */
  readonly referenced = new Set<number>()
  /** Reads started early for later steps (read-ahead.ts); `source` answers from them. */
  readonly ahead: ReadAhead
  /** The site's database, as every step reads it. */
  readonly source: NexusphpConnection

  constructor(
    source: NexusphpConnection,
    readonly ctx: SourceSyncContext,
    readonly tuning: NexusphpSyncTuning,
    readonly schema: SourceSchema,
    readonly memberIndexes: MemberIndexes,
    readonly state: NexusphpState,
    readonly engines: SourceEngines,
  ) {
    this.db = ctx.database.db
    this.ahead = new ReadAhead(source)
    this.source = this.ahead.connection
  }

  private count(table: string, n: number): void {
    if (n) this.rows[table] = (this.rows[table] ?? 0) + n
  }

  progress(table: string, read: number, total: number | null = null): void {
    this.ctx.progress({ table, read, total })
  }

  /** The source's own row estimate of a table (information_schema; cheap, approximate). */
  async estimate(table: string): Promise<number | null> {
    const rows = await this.source.query<{ n: number | null }>(
      'SELECT TABLE_ROWS AS n FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?',
      [table],
      'information_schema',
    )
    const n = rows[0]?.n
    return n === null || n === undefined ? null : Number(n)
  }

  /**
   * Ids one statement may cover in a primary-key scan of `table`: bounded where the tracker would wait
   * for it. A pass's first window takes the pace's start (what a read-ahead plan issued); `later`
   * windows follow the table's pace (pace.ts), which `timed` statements move.
   */
  span(table: SourceTable, later = false): number {
    if (!this.engines.locking.has(table)) return Number.MAX_SAFE_INTEGER
    return later ? this.paceOf(table).span : WindowPace.start(this.tuning.lockedScanIds)
  }

  /** A window's statement of a scan of `table`, timed for the table's pace where the tracker waits for it. */
  timed<T>(table: SourceTable, read: Promise<T>): Promise<T> {
    if (!this.engines.locking.has(table)) return read
    const pace = this.paceOf(table)
    const started = performance.now()
    void read.then(
      () => pace.record(performance.now() - started),
      () => {},
    )
    return read
  }

  private readonly paces = new Map<SourceTable, WindowPace>()
  private paceOf(table: SourceTable): WindowPace {
    let pace = this.paces.get(table)
    if (!pace) this.paces.set(table, (pace = new WindowPace(this.tuning.lockedScanIds, this.tuning.lockedStatementMs)))
    return pace
  }

  /** The span each paced table ended at (the bench reports it). */
  get pacedSpans(): Record<string, number> {
    return Object.fromEntries([...this.paces].map(([table, pace]) => [table, pace.span]))
  }

  /** Ids per primary-key lookup in `table`: fewer where the tracker waits for the statement. */
  lookupChunk(table: SourceTable): number {
    return this.engines.locking.has(table) ? Math.min(this.tuning.idChunk, this.tuning.lockedLookupIds) : this.tuning.idChunk
  }

  /** Members per lookup through a member index of `table`. */
  memberGroup(table: SourceTable): number {
    return this.engines.locking.has(table) ? this.tuning.lockedMemberGroup : this.tuning.memberGroup
  }

  /** The source's highest id of `table` when first asked in this sync: where its primary-key scans end. */
  sourceMaxId(table: SourceTable): Promise<number> {
    return this.once(`max id ${table}`, async () => {
      const rows = await this.source.query<{ m: number | null }>(`SELECT MAX(id) AS m FROM ${table}`, [], table)
      return Number(rows[0]?.m ?? 0)
    })
  }

  /** Writes one page and the state that records it, all or nothing. */
  commit(work: (trx: Kysely<DB>) => Promise<void>): Promise<void> {
    return this.db.transaction().execute(async (trx) => {
      await work(trx)
      await writeSourceState(trx, this.state)
    })
  }

  /**
   * Makes rows read from the site safe to store (reader.ts `checkSourceRows`), noting what it changed.
   * Every row the sync writes passes here: a time later than the site's clock now plus
   * `futureToleranceMs` is not believed.
   */
  checkRows<T extends MirrorTable>(table: T, rows: readonly MirrorRows[T][]): void {
    const latest = this.ctx.now + (performance.now() - this.startedAt) + this.tuning.futureToleranceMs
    const notes = this.state.notes
    // Recorded in the state, committed with the page that met them.
    checkSourceRows(table, rows, { latest }, (message) => {
      const first = !this.noted.has(message)
      this.noted.add(message)
      notes[message] = { rows: (first ? 0 : (notes[message]?.rows ?? 0)) + 1, at: this.ctx.now }
    })
  }

  /** What the site's rows needed (`state.notes`), as /data-sync lists it: those met within `notesKeptMs`. */
  reportNotes(): SiteDataNote[] {
    const report: SiteDataNote[] = []
    for (const [message, { rows, at }] of Object.entries(this.state.notes)) {
      if (this.ctx.now - at < notesKeptMs) report.push({ message, rows })
      else delete this.state.notes[message]
    }
    return report
  }

  async upsert<T extends MirrorTable>(trx: Kysely<DB>, table: T, rows: readonly MirrorRows[T][]): Promise<void> {
    this.checkRows(table, rows)
    this.note(table, rows)
    this.count(table, await upsertMirror(trx, table, rows))
  }

  /** Rows that cannot be in the mirror yet (the mirror writer's `insertMirrorFresh`); `siteUids`: whose records to queue when the pass is not full. */
  async insertFresh<T extends MirrorTable>(
    trx: Kysely<DB>,
    table: T,
    rows: readonly MirrorRows[T][],
    siteUids: readonly number[] = [],
  ): Promise<void> {
    this.checkRows(table, rows)
    this.note(table, rows)
    const cover = this.fullPass ? 'full pass' : { siteUids }
    this.count(table, await insertMirrorFresh(this.ctx.database, trx, table, rows, cover, { keyDeferred: this.keysDeferred.has(table) }))
  }

  async remove(trx: Kysely<DB>, table: MirrorTable, ids: readonly number[]): Promise<void> {
    this.count(table, await deleteMirror(trx, table, ids))
  }

  private note(table: MirrorTable, rows: readonly unknown[]): void {
    const col = torrentColumn[table]
    if (col) for (const row of rows) this.referenced.add(Number((row as Record<string, unknown>)[col]))
  }

  private readonly settled = new Map<string, Promise<unknown>>()
  /** One answer for the whole sync: what a read-ahead plan and its step must agree on (e.g. a rolling slice). */
  once<T>(key: string, compute: () => Promise<T>): Promise<T> {
    if (!this.settled.has(key)) this.settled.set(key, compute())
    return this.settled.get(key) as Promise<T>
  }

  private readonly settledNow = new Map<string, unknown>()
  /** `once` for an answer that needs no reads. */
  onceSync<T>(key: string, compute: () => T): T {
    if (!this.settledNow.has(key)) this.settledNow.set(key, compute())
    return this.settledNow.get(key) as T
  }

  /** Which of these torrent ids the mirror holds. */
  async mirroredTorrents(ids: readonly number[]): Promise<Set<number>> {
    const found = new Set<number>()
    for (const part of chunks(ids, this.tuning.idChunk)) {
      for (const r of await this.db.selectFrom('site_torrents').select('id').where('id', 'in', part).execute()) found.add(r.id)
    }
    return found
  }
}
