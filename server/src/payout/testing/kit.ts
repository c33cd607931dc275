/**
 * What the payout tests of a NexusPHP site share: payout services paying into it through its write account
 * (closed by `closeServices`), a member's wage record id, credit (tenths) and ledger entry, and the rules'
 * settleClaims switched. `get` answers the describe's database, write account and month once its beforeAll
 * has set them.
 */
import { currentRules, saveRules } from '../../rules/rules'
import type { TestDatabase } from '../../test/harness'
import type { PayoutService, PayoutServiceOptions } from '../service'
import { creditTenths } from '../tenths'
import { nexusphpPayoutService } from './nexusphp-service'
import { AFTER_MONTH, type WageMonth } from './wage-month'

export function payoutKit(get: () => { db: TestDatabase; writerUrl: string; month: WageMonth }) {
  const services: PayoutService[] = []
  const wage = (uid: number) => get().month.wages.get(uid)!
  return {
    /** A payout service at the month's end; `url`: another write account. */
    service(extra: Partial<PayoutServiceOptions> = {}, url = get().writerUrl): PayoutService {
      const created = nexusphpPayoutService(get().db, url, { clock: () => AFTER_MONTH, ...extra })
      services.push(created)
      return created
    },
    wage,
    credit: (uid: number) => creditTenths(get().month.amounts.get(uid)!),
    entry: (uid: number) =>
      get().db.database.db.selectFrom('payout_ledger').selectAll().where('wage_id', '=', wage(uid)).executeTakeFirstOrThrow(),
    async settleClaims(on: boolean) {
      const { db } = get()
      const { version: _version, ...rules } = await currentRules(db.database.db)
      await saveRules(db.database.db, { ...rules, settleClaims: on }, AFTER_MONTH - 1000, null)
    },
    async closeServices() {
      for (const service of services.splice(0)) await service.close()
    },
  }
}
