/** The site's small named tables (teams, categories, tags) and its users. */
import { readMirrorRows } from '../reader'
import { chunks } from '../../../util/chunks'
import { type SyncSession } from './session'

/** Teams, categories and tags: whole tables every sync (a dozen rows each). */
export async function syncNamedTables(s: SyncSession): Promise<void> {
  for (const table of ['site_teams', 'site_categories', 'site_tags'] as const) {
    const rows = await readMirrorRows(s.source, s.schema, table, 'ORDER BY id')
    s.progress(table, rows.length, rows.length)
    const seen = new Set(rows.map((r) => r.id))
    const stored = await s.db.selectFrom(table).select('id').execute()
    await s.commit(async (trx) => {
      await s.upsert(trx, table, rows)
      await s.remove(
        trx,
        table,
        stored.map((r) => r.id).filter((id) => !seen.has(id)),
      )
    })
  }
}

/** All site users (admins pick members from them): new ids every sync; all of them (renames, deletions) once per `usersRefreshMs`. */
export async function syncSiteUsers(s: SyncSession): Promise<void> {
  const state = s.state.users
  if (!state.refresh && (state.refreshedAt === null || s.ctx.now - state.refreshedAt >= s.tuning.usersRefreshMs))
    state.refresh = { afterId: 0 }
  let read = 0
  // A refresh reads the whole table: the source's row estimate is its progress total.
  const total = state.refresh ? await s.estimate('users') : null
  // Pages of a primary-key range: no longer than a scan's window where the tracker waits for the read.
  const pageRows = Math.min(s.tuning.pageRows, s.span('users'))
  for (;;) {
    const refreshing = state.refresh !== null
    const after = state.refresh?.afterId ?? state.maxId
    const rows = await readMirrorRows(s.source, s.schema, 'site_users', `WHERE id > ? ORDER BY id LIMIT ${pageRows}`, [after])
    read += rows.length
    s.progress('site_users', read, total === null ? null : Math.max(total, read))
    const last = rows.length ? rows[rows.length - 1].id : after
    const done = rows.length < pageRows
    // A refresh also removes the users the site deleted in the range it covered.
    let gone: number[] = []
    if (refreshing) {
      const seen = new Set(rows.map((r) => r.id))
      const q = s.db.selectFrom('site_users').select('id').where('id', '>', after)
      const stored = await (done ? q : q.where('id', '<=', last)).execute()
      gone = stored.map((r) => r.id).filter((id) => !seen.has(id))
    }
    state.maxId = Math.max(state.maxId, last)
    if (refreshing) {
      if (done) {
        state.refresh = null
        state.refreshedAt = s.ctx.now
      } else state.refresh = { afterId: last }
    }
    await s.commit(async (trx) => {
      await s.upsert(trx, 'site_users', rows)
      await s.remove(trx, 'site_users', gone)
    })
    if (done) return
  }
}

/**
 * The team members' own site accounts, every sync, by primary key: a member whose account the site
 * disables (`enabled = no`) or deletes (站点账号已删除, domain/site-accounts.ts) stops being paid and shows
 * 无工资 after the next sync, not after the next whole-table refresh of `usersRefreshMs` (a day).
 */
export async function syncMemberAccounts(s: SyncSession, members: readonly number[]): Promise<void> {
  for (const part of chunks(members, s.lookupChunk('users'))) {
    const rows = await readMirrorRows(s.source, s.schema, 'site_users', `WHERE id IN (${part.map(() => '?').join(', ')})`, part)
    const found = new Set(rows.map((r) => r.id))
    const gone = part.filter((uid) => !found.has(uid))
    await s.commit(async (trx) => {
      await s.upsert(trx, 'site_users', rows)
      await s.remove(trx, 'site_users', gone)
    })
  }
}
