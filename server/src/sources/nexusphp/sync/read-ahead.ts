/**
 * Source reads started before the step that needs them, so the site's database works while this
 * server writes the mirror (SQLite is synchronous: without this, each step's first query waited on
 * the previous step's writes, and the two sides took turns).
 *
 * A plan issues the same statements its steps will issue, through `planned` (whose answers are
 * empty: a plan only starts reads). Each started read waits, keyed by its exact text and values,
 * for the one step statement that matches it; a statement nobody started runs as usual. So a plan
 * that no longer matches what a step does costs a wasted read, never a wrong one.
 */
import type { NexusphpConnection, SourceRow } from '../connection'

const keyOf = (sql: string, values: readonly unknown[]) => `${sql}\u0000${JSON.stringify(values)}`

export class ReadAhead {
  private readonly started = new Map<string, Promise<SourceRow[]>>()
  /** Started reads a step took, and steps' statements nobody had started. */
  readonly counts = { taken: 0, direct: 0 }

  /** The connection steps read through. */
  readonly connection: NexusphpConnection
  /** The connection plans issue their statements through: each starts at the source now; answers are empty. */
  readonly planned: NexusphpConnection

  constructor(source: NexusphpConnection) {
    this.connection = {
      ...source,
      query: <T extends SourceRow>(sql: string, values: unknown[] = [], what?: string) => {
        const key = keyOf(sql, values)
        const early = this.started.get(key)
        if (!early) {
          this.counts.direct++
          return source.query<T>(sql, values, what)
        }
        this.started.delete(key)
        this.counts.taken++
        return early as Promise<T[]>
      },
    }
    this.planned = {
      ...source,
      query: async <T extends SourceRow>(sql: string, values: unknown[] = [], what?: string) => {
        const key = keyOf(sql, values)
        if (!this.started.has(key)) {
          const read = source.query(sql, values, what)
          read.catch(() => {}) // its step sees the error; a read no step takes is dropped
          this.started.set(key, read)
        }
        return [] as T[]
      },
    }
  }

  /** Reads started that no step took (a plan that did not match its steps). */
  get unused(): number {
    return this.started.size
  }
}
