/** A payout service of the tests that pays into a test NexusPHP site through its write account. */
import type { TestDatabase } from '../../test/harness'
import { createPayoutService, type PayoutService, type PayoutServiceOptions } from '../service'

export function nexusphpPayoutService(
  db: TestDatabase,
  writerUrl: string,
  options: Omit<PayoutServiceOptions, 'database' | 'config'>,
): PayoutService {
  const config = {
    ...db.config,
    source: 'nexusphp' as const,
    payout: { writeDatabaseUrl: writerUrl, webhookUrl: undefined, webhookSecret: undefined },
  }
  return createPayoutService({ database: db.database, config, ...options })
}
