/** 发放到站点 calls of `/api/v1/wages/payout*`: wages credited to the members' bonus on the site. */
import type { WageRecord } from '@shared/entities'
import type { PayoutPreview, PayoutResult } from '@shared/payout'
import { request, RequestError, type RequestOptions, type TableData } from './request'

/** Selected records, or the whole month. */
export type PayoutSelection = { ids: number[] } | { period: string }

// POST /wages/payout/preview — nothing is written; the NexusPHP bonus is read live from the site.
export function previewPayout(selection: PayoutSelection, options?: RequestOptions): Promise<PayoutPreview> {
  return request('wages.payoutPreview', selection, options)
}

// POST /wages/payout — each record at most once into the site; answers per member.
export async function runPayout(ids: number[], options?: RequestOptions): Promise<PayoutResult[]> {
  return (await request('wages.payout', { ids }, options)).list
}

// POST /wages/payout/resolve — settles one 待核对 record.
export function resolvePayout(wageId: number, action: 'markDone' | 'payRest', options?: RequestOptions): Promise<PayoutResult> {
  return request('wages.payoutResolve', { wageId, action }, options)
}

export type SiteArrival = { state: 'pending' | 'done' | 'in_doubt' | 'failed'; doneAt: string | null }
export type WageRecordWithArrival = WageRecord & { siteArrival?: SiteArrival }

/**
 * A wage page with each record's arrival at the site (我的工资). The arrival is extra: when it
 * cannot be read the records are shown without it.
 */
export function withSiteArrival<A extends unknown[]>(
  load: (...args: A) => Promise<TableData<WageRecord>>,
): (...args: A) => Promise<TableData<WageRecordWithArrival>> {
  return async (...args) => {
    const page = await load(...args)
    if (page.data.length === 0) return page
    try {
      const states = await request('wages.payoutStatus', { ids: page.data.map((r) => r.id) }, { silent: true })
      const byId = new Map(states.map((s) => [s.wageId, { state: s.state, doneAt: s.doneAt }]))
      return { ...page, data: page.data.map((r) => ({ ...r, siteArrival: byId.get(r.id) })) }
    } catch (error) {
      if (error instanceof RequestError) return page
      throw error
    }
  }
}
