/**
 * The id span of a primary-key scan's windows on a table with table-level locks (a v1.6 site's
 * MyISAM tables): the tracker's UPDATEs of that table wait for each of our statements, so a window
 * should take about `targetMs` of the site's time — more ids where the site answers fast (fewer
 * statements: a faster sync), fewer where it is slow or busy (shorter waits for the tracker).
 *
 * A statement's time is measured here from its start to its answer, which also holds the time our
 * own synchronous mirror writes kept the answer waiting. So a window grows only when the slowest of
 * the last few was well under the target, and shrinks only when the fastest of them was over it —
 * never below its start: on a machine short of CPU, windows of 250 ids took as long as 2,000 (the
 * time is the wait for a core, not the rows) and only multiplied the statements (bench:nexusphp,
 * 2026-11-24: an incremental sync's source part 14 → 24 s, no shorter waits for the tracker).
 */
export class WindowPace {
  private current: number
  private recent: number[] = []

  /** `cap`: the most ids a window may cover; it starts at a quarter of that (`WindowPace.start`). */
  constructor(
    private readonly cap: number,
    private readonly targetMs: number,
  ) {
    this.current = WindowPace.start(cap)
  }

  /** A pass's first window (what a read-ahead plan issues before any answer is timed). */
  static start(cap: number): number {
    return Math.max(1, Math.round(cap / 4))
  }

  /** Ids the next window covers: between the start and the cap. */
  get span(): number {
    return this.current
  }

  record(ms: number): void {
    this.recent.push(ms)
    if (this.recent.length > 3) this.recent.shift()
    if (this.recent.length >= 2 && Math.min(...this.recent) > this.targetMs) this.resize(this.current / 2)
    else if (this.recent.length === 3 && Math.max(...this.recent) < this.targetMs / 2) this.resize(this.current * 1.25)
  }

  private resize(to: number): void {
    this.current = Math.round(Math.min(this.cap, Math.max(WindowPace.start(this.cap), to)))
    this.recent = []
  }
}
