/**
 * Manual seed-type overrides (官种设置 › 种子列表): 1 官种 / 2 非官种 outrank the rules; null
 * removes the override (back to the rules). `updated` counts the torrents whose override changed
 * (set, changed or removed); the torrents are queued and re-labelled with their records.
 */
import type { AuthUser } from '../auth/sessions'
import { seedTypeLabels, type SeedType } from '@shared/enums'
import { queueTorrents } from '../derive/queue'
import type { RequestContext } from '../http/endpoint'
import { OperationAction, recordOperation } from '../operation-log/record'
import { AdminLock, lockFor } from '../db/write-lock'
import { relabel } from '../derive/relabel'
import { assertTorrentsExist, torrentList, uniqueSorted } from '../assignments/targets'

type Ctx = RequestContext<AuthUser>

const RULE = '按规则'
const label = (seedType: number | null) => (seedType === null ? RULE : `${seedTypeLabels[seedType as SeedType]}（手动）`)

export async function setSeedType(ctx: Ctx, input: { ids: number[]; seedType: SeedType | null }): Promise<{ updated: number }> {
  const ids = uniqueSorted(input.ids)
  const target = input.seedType
  const updated = await ctx.db.transaction().execute(async (trx) => {
    await lockFor(trx, ctx.services.database.dialect, AdminLock.seedTypes)
    await assertTorrentsExist(trx, ids)
    const before = new Map<number, number>()
    for (const r of await trx
      .selectFrom('seed_type_overrides')
      .select(['torrent_id', 'seed_type'])
      .where('torrent_id', 'in', ids)
      .execute()) {
      before.set(r.torrent_id, r.seed_type)
    }
    const changed = ids.filter((id) => (before.get(id) ?? null) !== target)
    if (changed.length === 0) return 0
    for (let i = 0; i < changed.length; i += 500) {
      const part = changed.slice(i, i + 500)
      if (target === null) await trx.deleteFrom('seed_type_overrides').where('torrent_id', 'in', part).execute()
      else
        await trx
          .insertInto('seed_type_overrides')
          .values(part.map((id) => ({ torrent_id: id, seed_type: target, set_at: ctx.now, set_by: ctx.user.id })))
          .onConflict((oc) =>
            oc.column('torrent_id').doUpdateSet((eb) => ({
              seed_type: eb.ref('excluded.seed_type'),
              set_at: eb.ref('excluded.set_at'),
              set_by: eb.ref('excluded.set_by'),
            })),
          )
          .execute()
    }
    await queueTorrents(trx, changed)
    // "按规则 → 官种（手动） 2 个：#1《name》、#2《name》；非官种（手动） → 官种（手动） 1 个：#9《name》"
    const groups = new Map<string, number[]>()
    for (const id of changed) {
      const key = label(before.get(id) ?? null)
      groups.set(key, [...(groups.get(key) ?? []), id])
    }
    const parts: string[] = []
    for (const [from, list] of groups) parts.push(`种子类型：${from} → ${label(target)} ${list.length} 个：${await torrentList(trx, list)}`)
    const detail = parts.join('；')
    await recordOperation(
      trx,
      {
        operator: ctx.user,
        action: OperationAction.SetSeedType,
        targetType: 'torrent',
        targetId: changed.length === 1 ? changed[0] : null,
        detail,
        ip: ctx.ip,
      },
      ctx.now,
    )
    return changed.length
  })
  if (updated) await relabel(ctx.services, ctx.now, ctx.log)
  return { updated }
}
