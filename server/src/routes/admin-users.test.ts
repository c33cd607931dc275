/**
 * Members and admins: authorization matrix of every admin-action endpoint, bad input
 * (nothing written), member management, password changes, the admin role with its guards
 * (including two admins removing each other at once), and the operation log of each mutation.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { operationLogSchema, userSchema, type OperationLog, type User } from '@shared/entities'
import { messages } from '@shared/messages'
import { hashPassword } from '../auth/password'
import { createSession } from '../auth/sessions'
import { derive } from '../derive'
import { defaultRuleBody } from '../rules/rules'
import { openTestDatabases, testClock, testScrypt, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import { lastLog, snapshot } from '../test/admin-helpers'

const ADMIN_PASSWORD = 'Admin-pass-1'
const PASSWORD = 'Member-pass-1'
const NOW = Date.UTC(2026, 0, 15, 4, 0, 0)

type Method = 'GET' | 'POST'
type Paged<T> = { list: T[]; total: number }

describe.each(openTestDatabases())('admin actions on members and admins ($name)', (backend) => {
  const clock = testClock(NOW)
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock })
  const ids = { admin: 0, helper: 0, alice: 0, bob: 0, carol: 0, dave: 0, bannedAdmin: 0, deleted: 0 }
  const tokens = { admin: '', helper: '', alice: '', bannedAdmin: '', deleted: '' }
  let hash = ''

  async function session(userId: number) {
    return createSession(t.db.database.db, userId, { ip: '127.0.0.1', userAgent: 'test' }, clock())
  }

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    hash = await hashPassword(PASSWORD, testScrypt)
    ids.admin = (await db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id
    ids.helper = await w.member('helper', null, { role: 'admin', passwordHash: hash })
    ids.alice = await w.member('alice', 1001, { passwordHash: hash })
    ids.bob = await w.member('bob', 1002, { passwordHash: hash })
    ids.carol = await w.member('carol', 1003, { passwordHash: hash })
    ids.dave = await w.member('dave', 1004, { passwordHash: hash })
    ids.bannedAdmin = await w.member('banned_admin', null, { role: 'admin', passwordHash: hash })
    ids.deleted = await w.member('deleted_user', 1009, { passwordHash: hash })
    await w.torrent(1)
    await w.torrent(2)
    await w.peer(1001, 1, { seeder: true, lastAction: NOW - 60_000 })
    await derive(t.db.database, { now: NOW })
    tokens.admin = await t.login('admin', ADMIN_PASSWORD)
    tokens.helper = await session(ids.helper)
    tokens.alice = await t.login('alice', PASSWORD)
    tokens.bannedAdmin = await session(ids.bannedAdmin)
    tokens.deleted = await session(ids.deleted)
    await db.updateTable('users').set({ status: 0 }).where('id', '=', ids.bannedAdmin).execute()
    await db.updateTable('users').set({ status: 1 }).where('id', '=', ids.deleted).execute()
  })

  const adminCalls = (): [Method, string, unknown][] => [
    ['POST', '/user/create', { username: 'matrix_user', password: 'Matrix-pass-1', siteUid: 2001, remark: '矩阵' }],
    ['POST', '/user/update', { id: ids.carol, remark: '备注已改' }],
    ['POST', '/user/set-status', { id: ids.carol, status: 0 }],
    ['POST', '/user/reset-password', { id: ids.carol, password: 'Carol-new-pass-1' }],
    ['GET', `/config/add-admin?userId=${ids.dave}`, undefined],
    ['POST', '/config/del-admin', { userId: ids.dave }],
    ['POST', '/config/add-admin', { userId: ids.dave }],
    ['GET', `/config/del-admin?userId=${ids.dave}`, undefined],
    ['GET', '/config/rules', undefined],
    ['POST', '/config/rules', { ...defaultRuleBody, targetKeepers: 4 }],
    ['POST', '/torrent/set-type', { ids: [1], seedType: 1 }],
    ['POST', '/task/assign', { torrentIds: [1, 2], userIds: [ids.bob] }],
    ['POST', '/task/unassign', { torrentIds: [2] }],
    ['POST', '/task/auto-assign', { preview: true }],
    ['POST', '/operation-log/page', { page: 1, pageSize: 10 }],
  ]

  async function callPath<T = unknown>(method: Method, path: string, body: unknown, token?: string) {
    const [p, qs] = path.split('?')
    const query = qs ? Object.fromEntries(new URLSearchParams(qs)) : undefined
    return t.call<T>(method, p, { token, body, query })
  }

  describe('authorization', () => {
    it('anonymous 401, member 403, banned admin 401, deleted user 401 — and nothing changes', async () => {
      const before = await snapshot(t)
      const cases: [string | undefined, number, string][] = [
        [undefined, 401, messages.notLoggedIn],
        [tokens.alice, 403, messages.forbidden],
        // The holder of a session that a ban or delete ended is told why.
        [tokens.bannedAdmin, 401, messages.accountBanned],
        [tokens.deleted, 401, messages.accountDeleted],
        ['not-a-token', 401, messages.notLoggedIn],
      ]
      for (const [token, status, msg] of cases) {
        for (const [method, path, body] of adminCalls()) {
          const res = await callPath(method, path, body, token)
          expect(res.status, `${method} ${path} as ${token?.slice(0, 6)}`).toBe(status)
          expect(res.body).toEqual({ code: status, msg, data: null })
        }
        // change-password is every member's: the member gets past access, then fails on the old password.
        const res = await t.call('POST', '/user/change-password', {
          token,
          body: { oldPassword: 'Not-the-old-one', newPassword: 'Changed-pass-1' },
        })
        expect(res.status).toBe(token === tokens.alice ? 400 : 401)
      }
      expect(await snapshot(t)).toEqual(before)
    })

    it('an admin may call every one of them (200), in this order', async () => {
      for (const [method, path, body] of adminCalls()) {
        const res = await callPath(method, path, body, tokens.admin)
        expect(res.status, `${method} ${path}: ${res.body.msg}`).toBe(200)
      }
      // Undo what the sequence changed that later tests rely on.
      await t.db.database.db.updateTable('users').set({ status: 2, password_hash: hash }).where('id', '=', ids.carol).execute()
    })
  })

  describe('bad input', () => {
    const big = 'x'.repeat(10_000)
    const cases = (): [Method, string, unknown, number, RegExp | string][] => [
      ['POST', '/user/create', {}, 400, '请输入用户名'],
      ['POST', '/user/create', { username: 'ok_name' }, 400, '请输入密码'],
      ['POST', '/user/create', { username: big, password: 'Long-enough-1' }, 400, /^用户名：/],
      ['POST', '/user/create', { username: 42, password: 'Long-enough-1' }, 400, /^用户名：/],
      ['POST', '/user/create', { username: 'has space', password: 'Long-enough-1' }, 400, /^用户名：/],
      ['POST', '/user/create', { username: 'ok_name', password: 'short' }, 400, /^密码：/],
      ['POST', '/user/create', { username: 'ok_name', password: big }, 400, /^密码：/],
      ['POST', '/user/create', { username: 'ALICE', password: 'Long-enough-1' }, 409, '用户名已存在'],
      ['POST', '/user/create', { username: 'Deleted_User', password: 'Long-enough-1' }, 409, '用户名已存在'],
      ['POST', '/user/create', { username: 'ok_name', password: 'Long-enough-1', siteUid: -1 }, 400, /^站点 UID：/],
      ['POST', '/user/create', { username: 'ok_name', password: 'Long-enough-1', siteUid: 1e12 }, 400, /^站点 UID：/],
      ['POST', '/user/create', { username: 'ok_name', password: 'Long-enough-1', siteUid: 1.5 }, 400, /^站点 UID：/],
      ['POST', '/user/create', { username: 'ok_name', password: 'Long-enough-1', siteUid: 1001 }, 409, /站点 UID 1001 已被 alice 使用/],
      ['POST', '/user/create', { username: 'ok_name', password: 'Long-enough-1', remark: big }, 400, /^备注：/],
      ['POST', '/user/update', {}, 400, '请输入编号'],
      ['POST', '/user/update', { id: 'abc' }, 400, /^编号：/],
      ['POST', '/user/update', { id: -3, remark: 'x' }, 400, /^编号：/],
      ['POST', '/user/update', { id: 999_999, remark: 'x' }, 404, '用户不存在'],
      ['POST', '/user/update', { id: ids.alice, siteUid: 1002 }, 409, /站点 UID 1002 已被 bob 使用/],
      ['POST', '/user/update', { id: ids.alice, siteUid: 1009 }, 409, /已被 deleted_user（已删除） 使用/],
      ['POST', '/user/update', { id: ids.alice, remark: big }, 400, /^备注：/],
      ['POST', '/user/set-status', { id: ids.alice }, 400, /^状态：/],
      ['POST', '/user/set-status', { id: ids.alice, status: 3 }, 400, /^状态：/],
      ['POST', '/user/set-status', { id: ids.alice, status: '0' }, 400, /^状态：/],
      ['POST', '/user/set-status', { id: 999_999, status: 0 }, 404, '用户不存在'],
      ['POST', '/user/set-status', { id: ids.admin, status: 0 }, 409, '不能封禁或删除自己'],
      ['POST', '/user/set-status', { id: ids.admin, status: 1 }, 409, '不能封禁或删除自己'],
      ['POST', '/user/reset-password', { id: ids.alice, password: 'short' }, 400, /^密码：/],
      // Eight spaces pass the length: a password of spaces only is refused anyway.
      ['POST', '/user/reset-password', { id: ids.alice, password: ' '.repeat(8) }, 400, '密码：不能只包含空格'],
      ['POST', '/user/reset-password', { id: ids.alice, password: '\u3000'.repeat(8) }, 400, '密码：不能只包含空格'],
      ['POST', '/user/create', { username: 'ok_name', password: ' '.repeat(12) }, 400, '密码：不能只包含空格'],
      ['POST', '/user/reset-password', { id: ids.alice }, 400, '请输入密码'],
      ['POST', '/user/reset-password', { id: 999_999, password: 'Long-enough-1' }, 404, '用户不存在'],
      ['GET', '/config/add-admin?userId=abc', undefined, 400, /^用户：/],
      ['GET', '/config/add-admin', undefined, 400, /用户/],
      ['GET', '/config/add-admin?userId=-1', undefined, 400, /^用户：/],
      ['GET', '/config/add-admin?userId=999999', undefined, 404, '用户不存在'],
      ['POST', '/config/add-admin', {}, 400, '请输入用户'],
      ['POST', '/config/add-admin', { userId: String(ids.bob) }, 400, /^用户：/],
      ['POST', '/config/add-admin', { userId: true }, 400, /^用户：/],
      ['POST', '/config/add-admin', { userId: ids.helper }, 409, '该用户已是管理员'],
      ['POST', '/config/add-admin', { userId: ids.deleted }, 409, '只能把状态正常的用户设为管理员'],
      ['GET', `/config/del-admin?userId=${ids.admin}`, undefined, 409, '不能移除自己的管理员身份'],
      ['POST', '/config/del-admin', { userId: ids.admin }, 409, '不能移除自己的管理员身份'],
      ['POST', '/config/del-admin', { userId: ids.bob }, 409, '该用户不是管理员'],
      ['POST', '/config/del-admin', { userId: 999_999 }, 404, '用户不存在'],
    ]

    it('answers 4xx with a Chinese message naming the problem, and writes nothing', async () => {
      const before = await snapshot(t)
      for (const [method, path, body, status, msg] of cases()) {
        const res = await callPath(method, path, body, tokens.admin)
        expect(res.status, `${method} ${path} ${JSON.stringify(body)?.slice(0, 80)}: ${res.body.msg}`).toBe(status)
        expect(res.body.code).toBe(status)
        if (typeof msg === 'string') expect(res.body.msg).toBe(msg)
        else expect(res.body.msg).toMatch(msg)
        expect(res.body.msg).toMatch(/[\u4e00-\u9fff]/)
      }
      expect(await snapshot(t)).toEqual(before)
    })
  })

  describe('members', () => {
    it('create: role normal, status 正常, password hashed; the new member can log in; logged once', async () => {
      const res = await t.call<User>('POST', '/user/create', {
        token: tokens.admin,
        body: { username: 'Erin', password: 'Erin-pass-123', siteUid: 1005, remark: '新人' },
      })
      expect(res.status, res.body.msg).toBe(200)
      const user = userSchema.parse(res.body.data)
      expect(user).toMatchObject({ username: 'Erin', role: 'normal', status: 2, siteUid: 1005, remark: '新人', adminSince: null })
      const row = await t.db.database.db
        .selectFrom('users')
        .select(['password_hash', 'username_lower'])
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow()
      expect(row.password_hash).toMatch(/^scrypt\$/)
      expect(row.username_lower).toBe('erin')
      expect(await t.login('erin', 'Erin-pass-123')).toBeTruthy()
      const log = await t.db.database.db
        .selectFrom('operation_log')
        .selectAll()
        .where('action', '=', 'user.create')
        .where('target_id', '=', String(user.id))
        .execute()
      expect(log).toHaveLength(1)
      expect(log[0]).toMatchObject({ operator_id: ids.admin, operator_name: 'admin', target_type: 'user', ip: '127.0.0.1' })
      expect(log[0].detail).toContain('Erin')
      // Second time, other case: 409.
      const again = await t.call('POST', '/user/create', { token: tokens.admin, body: { username: 'ERIN', password: 'Erin-pass-123' } })
      expect(again.body).toEqual({ code: 409, msg: '用户名已存在', data: null })
    })

    it('update: site uid and remark with before → after in the log; the records follow the new site uid', async () => {
      const res = await t.call<User>('POST', '/user/update', {
        token: tokens.admin,
        body: { id: ids.alice, siteUid: 1006, remark: '换号' },
      })
      expect(res.status, res.body.msg).toBe(200)
      expect(res.body.data).toMatchObject({ id: ids.alice, siteUid: 1006, remark: '换号' })
      const log = await lastLog(t)
      expect(log).toMatchObject({ action: 'user.update', operatorId: ids.admin, targetId: String(ids.alice) })
      expect(log.detail).toBe('alice：站点 UID：1001 → 1006；备注：空 → 换号')
      // alice's record on torrent 1 came from site uid 1001's peer: gone with the uid.
      const records = await t.db.database.db.selectFrom('seed_records').select('torrent_id').where('user_id', '=', ids.alice).execute()
      expect(records).toEqual([])
      // Same values again: nothing written.
      const count = log.count
      expect(
        (await t.call('POST', '/user/update', { token: tokens.admin, body: { id: ids.alice, siteUid: 1006, remark: '换号' } })).status,
      ).toBe(200)
      expect((await lastLog(t)).count).toBe(count)
      await t.call('POST', '/user/update', { token: tokens.admin, body: { id: ids.alice, siteUid: 1001, remark: '' } })
      const back = await t.db.database.db.selectFrom('seed_records').select('torrent_id').where('user_id', '=', ids.alice).execute()
      expect(back).toEqual([{ torrent_id: 1 }])
    })

    it('ban ends the sessions at once, the member cannot log in; unban; delete drops them from user.list', async () => {
      const bobToken = await session(ids.bob)
      expect((await t.call('GET', '/user/login-info', { token: bobToken })).status).toBe(200)
      const ban = await t.call<User>('POST', '/user/set-status', { token: tokens.admin, body: { id: ids.bob, status: 0 } })
      expect(ban.status).toBe(200)
      expect(ban.body.data.status).toBe(0)
      expect((await lastLog(t)).detail).toBe('bob 状态：正常 → 封禁')
      expect((await t.call('GET', '/user/login-info', { token: bobToken })).status).toBe(401)
      const revoked = await t.db.database.db.selectFrom('sessions').select('revoked_at').where('user_id', '=', ids.bob).execute()
      expect(revoked.every((s) => s.revoked_at !== null)).toBe(true)
      expect((await t.call('POST', '/user/login', { body: { username: 'bob', password: PASSWORD } })).status).toBe(403)

      expect((await t.call('POST', '/user/set-status', { token: tokens.admin, body: { id: ids.bob, status: 2 } })).status).toBe(200)
      expect((await lastLog(t)).detail).toBe('bob 状态：封禁 → 正常')
      const loggedIn = await t.login('bob', PASSWORD)

      const del = await t.call<User>('POST', '/user/set-status', { token: tokens.admin, body: { id: ids.bob, status: 1 } })
      expect(del.status).toBe(200)
      expect((await t.call('GET', '/user/login-info', { token: loggedIn })).status).toBe(401)
      const list = await t.call<{ id: number }[]>('GET', '/user/list', { token: tokens.admin })
      expect(list.body.data.map((u) => u.id)).not.toContain(ids.bob)
      await t.call('POST', '/user/set-status', { token: tokens.admin, body: { id: ids.bob, status: 2 } })
    })

    it('reset-password ends the target sessions; the new password works, the old not', async () => {
      const token = await session(ids.dave)
      const res = await t.call('POST', '/user/reset-password', { token: tokens.admin, body: { id: ids.dave, password: 'Dave-new-pass-1' } })
      expect(res.body).toEqual({ code: 200, msg: expect.any(String), data: null })
      expect((await t.call('GET', '/user/login-info', { token })).status).toBe(401)
      expect((await t.call('POST', '/user/login', { body: { username: 'dave', password: PASSWORD } })).status).toBe(401)
      expect(await t.login('dave', 'Dave-new-pass-1')).toBeTruthy()
      const log = await lastLog(t)
      expect(log).toMatchObject({ action: 'user.login' })
      const reset = await t.db.database.db.selectFrom('operation_log').selectAll().where('action', '=', 'user.reset-password').execute()
      expect(reset.at(-1)).toMatchObject({ operator_id: ids.admin, target_id: String(ids.dave) })
      expect(reset.at(-1)!.detail).not.toContain('Dave-new-pass-1')
    })

    it('change-password: the member needs the old one; keeps this session, ends the others', async () => {
      const t1 = await t.login('carol', PASSWORD)
      const t2 = await session(ids.carol)
      const wrong = await t.call('POST', '/user/change-password', {
        token: t1,
        body: { oldPassword: 'nope-nope', newPassword: 'Carol-pass-2' },
      })
      expect(wrong.body).toEqual({ code: 400, msg: '原密码不正确', data: null })
      const missing = await t.call('POST', '/user/change-password', { token: t1, body: { oldPassword: PASSWORD } })
      expect(missing.body.msg).toBe('请输入新密码')
      const short = await t.call('POST', '/user/change-password', { token: t1, body: { oldPassword: PASSWORD, newPassword: 'x' } })
      expect(short.body.msg).toMatch(/^新密码：/)
      const blank = await t.call('POST', '/user/change-password', {
        token: t1,
        body: { oldPassword: PASSWORD, newPassword: ' '.repeat(9) },
      })
      expect(blank.body).toEqual({ code: 400, msg: '新密码：不能只包含空格', data: null })
      const ok = await t.call('POST', '/user/change-password', { token: t1, body: { oldPassword: PASSWORD, newPassword: 'Carol-pass-2' } })
      expect(ok.status, ok.body.msg).toBe(200)
      expect((await t.call('GET', '/user/login-info', { token: t1 })).status).toBe(200)
      expect((await t.call('GET', '/user/login-info', { token: t2 })).status).toBe(401)
      const log = await lastLog(t)
      expect(log).toMatchObject({ action: 'user.change-password', operatorId: ids.carol, targetId: String(ids.carol) })
      expect(await t.login('carol', 'Carol-pass-2')).toBeTruthy()
    })

    it('change-password: guessing the old password is limited like logging in', async () => {
      const token = await session(await new SeedingWorld(t.db.database.db).member('frank', 1010, { passwordHash: hash }))
      for (let i = 0; i < 5; i++) {
        const wrong = await t.call('POST', '/user/change-password', {
          token,
          body: { oldPassword: `guess-${i}-x`, newPassword: 'Frank-pass-2' },
        })
        expect(wrong.status).toBe(400)
      }
      // Even the right one is refused now, with when to try again; the password stays.
      const refused = await t.call('POST', '/user/change-password', { token, body: { oldPassword: PASSWORD, newPassword: 'Frank-pass-2' } })
      expect(refused.status).toBe(429)
      expect(refused.body.msg).toBe('原密码错误次数过多，请稍后再试')
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
      expect((await t.call('POST', '/user/login', { body: { username: 'frank', password: 'Frank-pass-2' } })).status).not.toBe(200)
    })
  })

  describe('admins', () => {
    it('add-admin takes effect on the next call of that user; del-admin too; both logged with before → after', async () => {
      const daveToken = await session(ids.dave)
      expect((await t.call('POST', '/user/page-admin', { token: daveToken, body: { page: 1, pageSize: 10 } })).status).toBe(403)
      const add = await t.call<User>('GET', '/config/add-admin', { token: tokens.admin, query: { userId: String(ids.dave) } })
      expect(add.status, add.body.msg).toBe(200)
      expect(add.body.data).toMatchObject({ id: ids.dave, role: 'admin', adminSince: new Date(NOW).toISOString() })
      expect((await lastLog(t)).detail).toBe('dave 角色：保种员 → 管理员')
      expect((await t.call('POST', '/user/page-admin', { token: daveToken, body: { page: 1, pageSize: 10 } })).status).toBe(200)
      const del = await t.call<User>('POST', '/config/del-admin', { token: tokens.admin, body: { userId: ids.dave } })
      expect(del.status).toBe(200)
      expect(del.body.data).toMatchObject({ role: 'normal', adminSince: null })
      expect((await lastLog(t)).detail).toBe('dave 角色：管理员 → 保种员')
      expect((await t.call('POST', '/user/page-admin', { token: daveToken, body: { page: 1, pageSize: 10 } })).status).toBe(403)
    })

    async function activeAdmins() {
      const rows = await t.db.database.db.selectFrom('users').select('id').where('role', '=', 'admin').where('status', '=', 2).execute()
      return rows.map((r) => r.id)
    }

    it.each([
      ['del-admin (GET)', (a: string, id: number) => t.call('GET', '/config/del-admin', { token: a, query: { userId: String(id) } })],
      ['del-admin (POST)', (a: string, id: number) => t.call('POST', '/config/del-admin', { token: a, body: { userId: id } })],
      ['ban', (a: string, id: number) => t.call('POST', '/user/set-status', { token: a, body: { id, status: 0 } })],
      ['delete', (a: string, id: number) => t.call('POST', '/user/set-status', { token: a, body: { id, status: 1 } })],
    ])('two admins removing each other at once (%s): exactly one succeeds, one admin remains', async (_name, remove) => {
      const { db } = t.db.database
      // Only admin and helper are active admins.
      await db.updateTable('users').set({ role: 'admin', status: 2, admin_since: NOW }).where('id', '=', ids.helper).execute()
      expect((await activeAdmins()).sort()).toEqual([ids.admin, ids.helper].sort())
      const helperToken = await session(ids.helper)
      const adminToken = await session(ids.admin)
      const before = (await lastLog(t)).count
      const results = await Promise.all([remove(adminToken, ids.helper), remove(helperToken, ids.admin)])
      const codes = results.map((r) => r.status).sort()
      expect(codes[0]).toBe(200)
      // The loser is refused inside the lock (403 你已不是管理员 / 409 最后一位管理员), or — when its
      // call is authenticated after the winner committed — by the access check (403 无权限; 401 after a ban/delete).
      expect([401, 403, 409]).toContain(codes[1])
      expect(results.find((r) => r.status !== 200)!.body.msg).toMatch(
        /你已不是管理员|最后一位管理员|^无权限$|^账号已被封禁$|^账号已被删除$/,
      )
      expect(await activeAdmins()).toHaveLength(1)
      expect((await lastLog(t)).count).toBe(before + 1)
      // Restore both.
      await db.updateTable('users').set({ role: 'admin', status: 2 }).where('id', 'in', [ids.admin, ids.helper]).execute()
      tokens.admin = await session(ids.admin)
    })
  })

  describe('operation log', () => {
    it('pages newest first with operator, action and time filters', async () => {
      const all = await t.call<Paged<OperationLog>>('POST', '/operation-log/page', {
        token: tokens.admin,
        body: { page: 1, pageSize: 200 },
      })
      expect(all.status).toBe(200)
      const list = all.body.data.list.map((r) => operationLogSchema.parse(r))
      expect(list.length).toBeGreaterThan(10)
      for (let i = 1; i < list.length; i++) expect(list[i - 1].at >= list[i].at).toBe(true)
      expect(list[0].id).toBeGreaterThan(list[1].id)

      const byAction = await t.call<Paged<OperationLog>>('POST', '/operation-log/page', {
        token: tokens.admin,
        body: { page: 1, pageSize: 50, action: 'user.set-status' },
      })
      expect(byAction.body.data.total).toBeGreaterThan(0)
      expect(byAction.body.data.list.every((r) => r.action === 'user.set-status')).toBe(true)

      const byOperator = await t.call<Paged<OperationLog>>('POST', '/operation-log/page', {
        token: tokens.admin,
        body: { page: 1, pageSize: 50, operatorId: ids.carol },
      })
      expect(byOperator.body.data.list.every((r) => r.operatorId === ids.carol)).toBe(true)
      expect(byOperator.body.data.list.map((r) => r.action)).toContain('user.change-password')

      const iso = new Date(NOW).toISOString()
      const inRange = await t.call<Paged<OperationLog>>('POST', '/operation-log/page', {
        token: tokens.admin,
        body: { page: 1, pageSize: 10, from: iso, to: iso },
      })
      expect(inRange.body.data.total).toBe(all.body.data.total)
      const later = await t.call<Paged<OperationLog>>('POST', '/operation-log/page', {
        token: tokens.admin,
        body: { page: 1, pageSize: 10, from: '2026-01-15T12:00:01+08:00' },
      })
      expect(later.body.data).toEqual({ list: [], total: 0 })

      const page2 = await t.call<Paged<OperationLog>>('POST', '/operation-log/page', {
        token: tokens.admin,
        body: { page: 2, pageSize: 5 },
      })
      expect(page2.body.data.list.map((r) => r.id)).toEqual(list.slice(5, 10).map((r) => r.id))
    })

    it('refuses bad filters with a Chinese message', async () => {
      for (const [body, msg] of [
        [{ page: 1, pageSize: 1000 }, /^每页条数：/],
        [{ page: 0, pageSize: 10 }, /^页码：/],
        [{ page: 1, pageSize: 10, action: 'nope' }, /^操作：/],
        [{ page: 1, pageSize: 10, from: 'yesterday' }, /^开始时间：应为带时区的日期时间，如 2026-11-01T00:00:00\+08:00$/],
        [{ page: 1, pageSize: 10, to: 'x'.repeat(10_000) }, /^结束时间：/],
        [{ page: 1, pageSize: 10, from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }, /^开始时间：/],
        [{ page: 1, pageSize: 10, orderBy: 'id DESC' }, /^排序：/],
        [{ page: 1, pageSize: 10, operatorId: -1 }, /^操作人：/],
      ] as const) {
        const res = await t.call('POST', '/operation-log/page', { token: tokens.admin, body })
        expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400)
        expect(res.body.msg).toMatch(msg)
      }
    })
  })
})
