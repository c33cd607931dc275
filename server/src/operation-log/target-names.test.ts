/**
 * 操作日志 names its targets: a user target by their username (as it is now), a torrent by its name;
 * the id stays in the row, and a target gone from the mirror has no name.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { OperationLog } from '@shared/entities'
import { createSession } from '../auth/sessions'
import { openTestDatabases, testClock, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import { OperationAction, recordOperation } from './record'

const NOW = Date.UTC(2026, 0, 15, 4, 0, 0)

describe.each(openTestDatabases())('operation-log target names ($name)', (backend) => {
  const t = useTestApp(backend, { adminPassword: 'Admin-pass-1', clock: testClock(NOW) })
  let token = ''
  let alice = 0

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    alice = await w.member('alice', 1001)
    await w.torrent(7, { name: 'Planet.Earth.II.2016.2160p' })
    const admin = await db.selectFrom('users').select(['id', 'username']).where('username', '=', 'admin').executeTakeFirstOrThrow()
    const log = (action: OperationAction, targetType: string, targetId: number | null, at: number) =>
      recordOperation(db, { operator: admin, action, targetType, targetId, detail: 'x', ip: '127.0.0.1' }, at)
    await log(OperationAction.SetUserStatus, 'user', alice, NOW - 4000)
    await log(OperationAction.Assign, 'torrent', 7, NOW - 3000)
    await log(OperationAction.Assign, 'torrent', 999, NOW - 2000) // no longer on the site
    await log(OperationAction.AutoAssign, 'torrent', null, NOW - 1000)
    // Renamed since: the log shows the name as it is now.
    await db.updateTable('users').set({ username: 'alice2', username_lower: 'alice2' }).where('id', '=', alice).execute()
    token = await createSession(db, admin.id, { ip: '127.0.0.1', userAgent: 'test' }, NOW)
  })

  it('/operation-log/page answers targetName for user and torrent targets', async () => {
    const res = await t.call<{ list: OperationLog[] }>('POST', '/operation-log/page', { token, body: { page: 1, pageSize: 10 } })
    expect(res.body.data.list.filter((r) => r.detail === 'x').map((r) => [r.targetType, r.targetId, r.targetName])).toEqual([
      ['torrent', null, null],
      ['torrent', '999', null],
      ['torrent', '7', 'Planet.Earth.II.2016.2160p'],
      ['user', String(alice), 'alice2'],
    ])
  })
})
