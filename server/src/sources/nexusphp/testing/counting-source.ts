/** SOURCE=nexusphp as index.ts builds it, through a connection that tallies the rows each statement reading `table` returns. */
import { DEFAULT_NEXUSPHP_TIMEZONE } from '../../../config'
import type { Source } from '../../source'
import { openNexusphpConnection, type NexusphpConnection, type SourceRow } from '../connection'
import { defaultTuning, syncNexusphp } from '../sync/run'

export function countingSource(url: string, table: 'torrents' | 'snatched', tally: { sql: string; n: number }[]): Source {
  const connection = openNexusphpConnection({ databaseUrl: url, timezone: DEFAULT_NEXUSPHP_TIMEZONE })
  const reads = new RegExp(`\\bFROM\\s+\`?${table}\`?(\\s|$)`, 'i')
  const counted: NexusphpConnection = {
    ...connection,
    async query<T extends SourceRow = SourceRow>(sql: string, values: unknown[] = [], what?: string): Promise<T[]> {
      const rows = await connection.query<T>(sql, values, what)
      if (reads.test(sql)) tally.push({ sql, n: rows.length })
      return rows
    },
  }
  return {
    kind: 'nexusphp',
    clock: () => connection.now(),
    sync: async (ctx) => (await syncNexusphp(counted, ctx, defaultTuning)).rows,
    close: () => connection.close(),
  }
}
