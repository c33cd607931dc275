/**
 * Where the user's row is in a month's rank (0-based, in the rank's own order), or null when they
 * are not in it; a failed read (already toasted) throws `RankReadFailed` — it says nothing of the rank. The rank call has no user filter, so this reads it in the largest pages the
 * contract allows: one call for a team of up to 200, 25 for the largest team (5,000).
 */
import { wageRank } from '@renderer/services/wages'

const PAGE_SIZE = 200

export class RankReadFailed extends Error {
  override name = 'RankReadFailed'
}

export async function findRankPosition(userId: number, period: string | undefined): Promise<number | null> {
  for (let page = 1; ; page++) {
    const answer = await wageRank({ current: page, pageSize: PAGE_SIZE, ...(period ? { period } : {}) })
    if (!answer.success) throw new RankReadFailed('工资排行读取失败')
    const index = answer.data.findIndex((entry) => entry.userId === userId)
    if (index >= 0) return (page - 1) * PAGE_SIZE + index
    if (page * PAGE_SIZE >= answer.total || answer.data.length === 0) return null
  }
}
