/** The paying step of 发放到站点: which preview rows are paid, and the calls that pay them. */
import type { PayoutPreview, PayoutPreviewEntry, PayoutResult } from '@shared/payout'
import { runPayout } from '@renderer/services/payout'
import { RequestError } from '@renderer/services/request'

/** Records per call: the progress moves member group by member group. */
const CHUNK = 10

/** A preview row that is not paid this time, as its result row. */
function resultOfPreview(entry: PayoutPreviewEntry): PayoutResult {
  return {
    wageId: entry.wageId,
    userId: entry.userId,
    username: entry.username,
    status: entry.status === 'in_doubt' ? 'in_doubt' : 'already',
    reason: entry.note,
    credit: entry.credit,
    bonusBefore: null,
    bonusAfter: null,
    logId: null,
    messageId: null,
  }
}

export interface PayoutPlan {
  /** Sent to the server (a blocked row comes back 失败 with its reason). */
  toPay: PayoutPreviewEntry[]
  /** Of those, the members the preview says will be paid (将发放): what the admin confirms. */
  payable: number
  /** 已发放过 and 待核对 rows, not paid again: 待核对 ones are settled on the result table. */
  skipped: PayoutResult[]
  inDoubt: number
}

export function payoutPlan(preview: PayoutPreview | null | undefined): PayoutPlan {
  const list = preview?.list ?? []
  return {
    toPay: list.filter((e) => e.status === 'ready' || e.status === 'blocked'),
    payable: list.filter((e) => e.status === 'ready').length,
    skipped: list.filter((e) => e.status === 'already' || e.status === 'in_doubt').map(resultOfPreview),
    inDoubt: list.filter((e) => e.status === 'in_doubt').length,
  }
}

/** Pays `toPay` a chunk per call, reporting progress; a chunk whose answer was lost comes back 失败. */
export async function payInChunks(
  toPay: PayoutPreviewEntry[],
  onProgress: (progress: { done: number; total: number }) => void,
): Promise<PayoutResult[]> {
  const ids = toPay.map((e) => e.wageId)
  const out: PayoutResult[] = []
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK)
    try {
      out.push(...(await runPayout(chunk, { silent: true })))
    } catch (error) {
      // The answer was lost: the server may have paid them. Reopening shows what the ledger says.
      const why = error instanceof RequestError ? error.msg : '请求失败'
      for (const entry of toPay.filter((e) => chunk.includes(e.wageId))) {
        out.push({ ...resultOfPreview(entry), status: 'failed', reason: `${why}（请重新打开「发放到站点」查看实际结果）` })
      }
    }
    onProgress({ done: Math.min(i + CHUNK, ids.length), total: ids.length })
  }
  return out
}
