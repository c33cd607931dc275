/**
 * Found by an outside tester (fixed since; the test keeps it so): a member's 已分配 count: 保种员 (User.assignedCount, /user/page-normal and /user/{id}) and 任务分配's member picker
 * (KeeperOption.assignedCount, /task/members — "assignments now", docs/api.md: "as on 保种员") must say the same.
 * When the site deletes a torrent that is assigned, the assignment stays (task.unassign can still remove it, and
 * auto-assign still counts it as load), but the member's record goes with the torrent's label, and 保种员 counts
 * only records with the assigned label: the two screens disagreed on the same member. The picker and auto-assign's
 * load now count only assignments of torrents the site still has.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { KeeperOption, User } from '@shared/entities'
import { createSession } from '../auth/sessions'
import { derive } from '../derive'
import { deleteMirror } from '../sources/mirror/delete'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'

const NOW = Date.UTC(2026, 0, 15, 4, 0, 0)

describe.each(openTestDatabases())('已分配 after the site deletes an assigned torrent ($name)', (backend) => {
  const clock = testClock(NOW)
  const t = useTestApp(backend, { adminPassword: 'Admin-pass-1', clock })
  let token = ''
  let m1 = 0

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    m1 = await w.member('m1', 1001)
    await w.torrent(1)
    await w.torrent(2)
    await derive(t.db.database, { now: NOW })
    const admin = (await db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id
    token = await createSession(db, admin, { ip: '127.0.0.1', userAgent: 'test' }, NOW)
  })

  const onMembersPage = async () => {
    const res = await t.call<{ list: User[]; total: number }>('POST', '/user/page-normal', { token, body: { page: 1, pageSize: 20 } })
    return res.body.data.list.find((u) => u.id === m1)!.assignedCount
  }
  const inDetail = async () => (await t.call<User>('GET', `/user/${m1}`, { token })).body.data.assignedCount
  const inPicker = async () => {
    const res = await t.call<KeeperOption[]>('GET', '/task/members', { token })
    return res.body.data.find((u) => u.id === m1)!.assignedCount
  }

  it('is the same on 保种员, in the member detail and in 任务分配 once the site deleted one of the torrents', async () => {
    const res = await t.call('POST', '/task/assign', { token, body: { torrentIds: [1, 2], userIds: [m1] } })
    expect(res.status, res.body.msg).toBe(200)
    expect([await onMembersPage(), await inDetail(), await inPicker()]).toEqual([2, 2, 2])

    // The site deletes torrent 2; the sync mirrors the deletion and derives.
    await deleteMirror(t.db.database.db, 'site_torrents', [2])
    await derive(t.db.database, { now: NOW + 600_000 })
    // The assignment is still there (it can be removed from 任务分配, and it weighs in auto-assign's load).
    expect(await t.db.database.db.selectFrom('assignments').select('torrent_id').where('user_id', '=', m1).execute()).toHaveLength(2)

    const picker = await inPicker()
    expect({ page: await onMembersPage(), detail: await inDetail() }).toEqual({ page: picker, detail: picker })
  })
})
