/**
 * SOURCE=nexusphp: the mirror is read from the site's own MySQL/MariaDB (read-only use; see
 * connection.ts for the GRANT that is enough and sync/run.ts for what is read when).
 */
import { type Config, DEFAULT_NEXUSPHP_TIMEZONE } from '../../config'
import type { Source, SourceSite } from '../source'
import { NexusphpError, openNexusphpConnection, type NexusphpConnectionConfig } from './connection'
import { readSiteSettings } from './site-settings'
import { defaultTuning, syncNexusphp, type NexusphpSyncTuning } from './sync/run'

export interface NexusphpSourceOptions extends Partial<Omit<NexusphpConnectionConfig, 'databaseUrl' | 'timezone'>> {
  /** Page sizes and rolling slices (tests make them small). */
  tuning?: Partial<NexusphpSyncTuning>
}

export function nexusphpSource(config: Config['nexusphp'], options: NexusphpSourceOptions = {}): Source {
  if (!config.databaseUrl) throw new NexusphpError('SOURCE=nexusphp 时必须设置 NEXUSPHP_DATABASE_URL')
  const connection = openNexusphpConnection({ ...options, databaseUrl: config.databaseUrl, timezone: config.timezone })
  const tuning = { ...defaultTuning, ...options.tuning }
  const site: SourceSite = { timeZone: config.timezone || DEFAULT_NEXUSPHP_TIMEZONE, peerLifetimeMinutes: null, wage: null }
  return {
    kind: 'nexusphp',
    // "Active" is judged against the site's clock (peers' last_action is written by it), never this server's.
    clock: () => connection.now(),
    async sync(ctx) {
      // Every sync: an admin may change the site's announce intervals, bonus or review settings at any time.
      const { hidesUnapproved, ...shown } = await readSiteSettings(connection)
      Object.assign(site, shown)
      const { rows, dataNotes } = await syncNexusphp(connection, ctx, tuning, { hidesUnapproved })
      site.dataNotes = dataNotes
      return rows
    },
    site: () => ({ ...site }),
    close: () => connection.close(),
  }
}
