/**
 * The third outside attack: what a logged-in member or a double-clicking admin can make the server
 * keep or redo — memory held by caches, versions and re-labellings that change nothing.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { API_PREFIX, TOKEN_HEADER } from '@shared/endpoints'
import type { Rules } from '@shared/entities'
import { DerivedCache } from '../paging/derived-cache'
import { snapshot } from '../test/admin-helpers'
import { openTestDatabases, useTestApp } from '../test/harness'

const ADMIN_PASSWORD = 'Admin-pass-1'
const MEMBER_PASSWORD = 'Member-pass-1'

describe.each(openTestDatabases())('outside attack, third round ($name)', (backend) => {
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD })

  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('page-seed: the ignored keyword (up to the 1 MB body) is not kept in the page cache, so a member cannot fill memory with it', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD)
    const created = await t.call('POST', '/user/create', { token: admin, body: { username: 'keyword_member', password: MEMBER_PASSWORD } })
    expect(created.status).toBe(200)
    const member = await t.login('keyword_member', MEMBER_PASSWORD)

    const keys: string[] = []
    const get = DerivedCache.prototype.get
    vi.spyOn(DerivedCache.prototype, 'get').mockImplementation(function (this: DerivedCache, db, key, count) {
      keys.push(key)
      return get.call(this, db, key, count)
    } as typeof get)

    const filler = 'k'.repeat(200_000)
    const answers = []
    for (const [i, token] of [member, member, admin].entries()) {
      const res = await t.call('POST', '/user/page-seed', { token, body: { page: 1, pageSize: 200, keyword: `${i}${filler}` } })
      expect(res.status).toBe(200)
      answers.push(res.body.data)
    }
    // Each request was a different keyword: none of it may end up in what the cache keeps.
    expect(keys.length).toBeGreaterThan(0)
    for (const key of keys) expect(key.length).toBeLessThan(1000)
    // The member's two requests are the same page (the keyword is ignored): the same answer.
    expect(answers[1]).toEqual(answers[0])
  })

  it('saving the rules unchanged (a double-click, a second tab) makes no new version, no log row and no re-labelling', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD)
    const current = await t.call<Rules>('GET', '/config/rules', { token: admin })
    const { version, ...body } = current.body.data
    const changed = { ...body, targetKeepers: body.targetKeepers + 1 }
    const first = await t.call<Rules>('POST', '/config/rules', { token: admin, body: changed })
    expect(first.status, first.body.msg).toBe(200)
    expect(first.body.data).toEqual({ ...changed, version: version + 1 })

    const before = await snapshot(t)
    const passes = vi.spyOn(t.app.services.sync, 'derivePass')
    const again = await Promise.all([0, 1, 2].map(() => t.call<Rules>('POST', '/config/rules', { token: admin, body: changed })))
    for (const res of again) {
      expect(res.status, res.body.msg).toBe(200)
      expect(res.body.data).toEqual({ ...changed, version: version + 1 })
    }
    expect(await snapshot(t)).toEqual(before)
    expect(passes).not.toHaveBeenCalled()

    // A real change still makes a version.
    const next = await t.call<Rules>('POST', '/config/rules', {
      token: admin,
      body: { ...changed, targetKeepers: changed.targetKeepers + 1 },
    })
    expect(next.body.data.version).toBe(version + 2)
  })
  it('a text/plain body is told to be JSON, like any other body that is not', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD)
    for (const contentType of ['text/plain', 'text/plain; charset=utf-8', 'application/xml']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `${API_PREFIX}/user/create`,
        headers: { [TOKEN_HEADER]: admin, 'content-type': contentType },
        payload: '{"username":"plain_text","password":"Member-pass-1"}',
      })
      expect(res.statusCode, contentType).toBe(400)
      expect(res.json().msg, contentType).toBe('请求体必须是 JSON（Content-Type: application/json）')
    }
  })
})
