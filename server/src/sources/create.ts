/**
 * The configured source, built from the configuration's part that names it — plain data, so that
 * the sync thread (jobs/sync-thread.ts) builds the same source as the server.
 */
import type { Config } from '../config'
import { demoSource } from './demo'
import { nexusphpSource } from './nexusphp'
import { idleSource, type Source } from './source'

export type SourceSpec = Pick<Config, 'source' | 'nexusphp'>

export function createSource(spec: SourceSpec): Source {
  if (spec.source === 'demo') return demoSource()
  if (spec.source === 'nexusphp') return nexusphpSource(spec.nexusphp)
  return idleSource(spec.source)
}
