/**
 * The second outside attack: field names that are Object.prototype's (`constructor`, `__proto__`,
 * `toString`) in a query string or a body must still get a Chinese message, and no new account may
 * look like an existing one (`ａｄｍｉｎ`, `𝐚𝐝𝐦𝐢𝐧`, `аdmin` with a Cyrillic а next to `admin`).
 */
import { describe, expect, it } from 'vitest'
import { API_PREFIX, TOKEN_HEADER } from '@shared/endpoints'
import { snapshot } from '../test/admin-helpers'
import { openTestDatabases, useTestApp } from '../test/harness'

const ADMIN_PASSWORD = 'Admin-pass-1'
/** A message of ours: Chinese, and nothing of JavaScript's showing through. */
const chinese = /[\u4e00-\u9fff]/
const jsLeak = /function|native code|\[object/

describe.each(openTestDatabases())('outside attack, second round ($name)', (backend) => {
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD })

  it('a NUL under a key named like a prototype member gets a Chinese message, not JavaScript source', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD)
    const answers = [
      // query strings
      await t.app.inject({ method: 'GET', url: `${API_PREFIX}/user/list?constructor=%00`, headers: { [TOKEN_HEADER]: admin } }),
      await t.app.inject({ method: 'GET', url: `${API_PREFIX}/user/1?__proto__=%00`, headers: { [TOKEN_HEADER]: admin } }),
      await t.app.inject({
        method: 'GET',
        url: `${API_PREFIX}/statistics/user-seeding-sta?hasOwnProperty=%00`,
        headers: { [TOKEN_HEADER]: admin },
      }),
      // JSON bodies, at the top and nested
      await t.app.inject({
        method: 'POST',
        url: `${API_PREFIX}/user/create`,
        headers: { [TOKEN_HEADER]: admin, 'content-type': 'application/json' },
        payload: '{"constructor":"\\u0000"}',
      }),
      await t.app.inject({
        method: 'POST',
        url: `${API_PREFIX}/torrent/page`,
        headers: { [TOKEN_HEADER]: admin, 'content-type': 'application/json' },
        payload: '{"page":1,"pageSize":10,"keyword":{"toString":"\\u0000"}}',
      }),
      // before login
      await t.app.inject({
        method: 'POST',
        url: `${API_PREFIX}/user/login`,
        headers: { 'content-type': 'application/json' },
        payload: '{"valueOf":"\\u0000","username":"admin","password":"x"}',
      }),
    ]
    for (const res of answers) {
      expect(res.statusCode).toBe(400)
      const body = res.json()
      expect(body.code).toBe(400)
      expect(body.data).toBeNull()
      expect(body.msg).not.toMatch(jsLeak)
      expect(body.msg).toMatch(chinese)
      expect(body.msg).toMatch(/：不能包含空字符$/)
    }
    expect(answers[0].json().msg).toBe('constructor：不能包含空字符')
    expect(answers[4].json().msg).toBe('keyword.toString：不能包含空字符')
  })

  it('refuses a username that looks like an existing one (width, math letters, Cyrillic, Greek, accents), and writes nothing', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD)
    const created = await t.call('POST', '/user/create', { token: admin, body: { username: 'file', password: 'Member-pass-1' } })
    expect(created.status).toBe(200)
    const before = await snapshot(t)
    const lookalikes: [string, string][] = [
      ['ａｄｍｉｎ', 'admin'], // full width
      ['𝐚𝐝𝐦𝐢𝐧', 'admin'], // mathematical bold
      ['аdmin', 'admin'], // Cyrillic а
      ['ΑDMIN', 'admin'], // Greek Α
      ['ADMİN', 'admin'], // I with a dot above
      ['ádmin', 'admin'], // an accent
      ['ﬁle', 'file'], // the fi ligature
      ['ＦＩＬＥ', 'file'],
    ]
    for (const [username, existing] of lookalikes) {
      const res = await t.call('POST', '/user/create', { token: admin, body: { username, password: 'Member-pass-1' } })
      expect(res.status, username).toBe(409)
      expect(res.body).toEqual({ code: 409, msg: `用户名与已有用户「${existing}」看起来相同，容易混淆，请换一个`, data: null })
    }
    expect(await snapshot(t)).toEqual(before)
  })

  it('still takes names that only share letters with others: other scripts, digits, Chinese', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD)
    for (const username of ['admin2', 'administrator', '管理员', 'админ', 'かな', 'がな', 'Zoë', '홍길동']) {
      const res = await t.call('POST', '/user/create', { token: admin, body: { username, password: 'Member-pass-1' } })
      expect(res.status, username).toBe(200)
    }
  })
})

describe.each(openTestDatabases())('text that is not well-formed UTF-16 ($name)', (backend) => {
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD })

  it('a lone surrogate in a remark is refused: it cannot be stored as sent, and nothing is written', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD)
    const before = await snapshot(t)
    const create = await t.call('POST', '/user/create', {
      token: admin,
      rawBody: '{"username":"surrogate","password":"Member-pass-1","remark":"a\\ud800b"}',
    })
    expect(create.status).toBe(400)
    expect(create.body).toEqual({ code: 400, msg: '备注：不能包含无效的 Unicode 字符（不成对的代理项）', data: null })
    expect(await snapshot(t)).toEqual(before)

    const member = await t.call<{ id: number }>('POST', '/user/create', {
      token: admin,
      body: { username: 'surrogate', password: 'Member-pass-1' },
    })
    const afterCreate = await snapshot(t)
    for (let i = 0; i < 2; i++) {
      const update = await t.call('POST', '/user/update', { token: admin, rawBody: `{"id":${member.body.data.id},"remark":"x\\udc00"}` })
      expect(update.status).toBe(400)
    }
    expect(await snapshot(t)).toEqual(afterCreate)
    const filter = await t.call('POST', '/torrent/page', { token: admin, rawBody: '{"page":1,"pageSize":10,"name":"\\ud83d"}' })
    expect(filter.status).toBe(400)
    expect(filter.body.msg).toBe('名称：不能包含无效的 Unicode 字符（不成对的代理项）')
    // A pair is a character like any other.
    const emoji = await t.call('POST', '/user/update', { token: admin, rawBody: `{"id":${member.body.data.id},"remark":"\\ud83d\\ude00"}` })
    expect(emoji.status).toBe(200)
    expect(emoji.body.data).toMatchObject({ remark: '😀' })
  })
})
