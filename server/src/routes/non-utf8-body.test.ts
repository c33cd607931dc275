/**
 * Found by an outside tester (fixed since; the test keeps it so): a JSON body that is not valid UTF-8 was accepted and
 * silently changed. The body parser decoded the bytes with Buffer#toString('utf8'), which turns every invalid sequence
 * into U+FFFD, so a remark sent in GBK (the usual legacy encoding of a Chinese Windows script — `备注` is B1 B8 D7 A2)
 * was saved as `��ע`, answered 200 and written into the operation log that way; a body declaring `charset=gbk` was
 * decoded as UTF-8 too. api.md: "JSON in, JSON out, UTF-8"; as a lone surrogate (outside-attack-2.test.ts), text that
 * cannot be stored as sent is refused: 400 in Chinese, nothing written (http/json-body.ts).
 */
import { describe, expect, it } from 'vitest'
import { API_PREFIX, TOKEN_HEADER } from '@shared/endpoints'
import { snapshot } from '../test/admin-helpers'
import { openTestDatabases, useTestApp } from '../test/harness'

const ADMIN_PASSWORD = 'Admin-pass-1'
const chinese = /[\u4e00-\u9fff]/

describe.each(openTestDatabases())('a body that is not UTF-8 ($name)', (backend) => {
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD })

  it('is refused with 400 and writes nothing, instead of storing U+FFFD in place of the text', async () => {
    const admin = await t.login('admin', ADMIN_PASSWORD)
    const before = await snapshot(t)
    const gbkRemark = Buffer.from([0xb1, 0xb8, 0xd7, 0xa2]) // 「备注」 in GBK
    for (const [i, contentType] of ['application/json', 'application/json; charset=gbk'].entries()) {
      const payload = Buffer.concat([
        Buffer.from(`{"username":"gbk_user_${i}","password":"Member-pass-1","remark":"`, 'utf8'),
        gbkRemark,
        Buffer.from('"}', 'utf8'),
      ])
      const res = await t.app.inject({
        method: 'POST',
        url: `${API_PREFIX}/user/create`,
        headers: { [TOKEN_HEADER]: admin, 'content-type': contentType },
        payload,
      })
      expect(res.statusCode, `${contentType}: ${res.payload}`).toBe(400)
      expect(res.json().code).toBe(400)
      expect(res.json().msg).toMatch(chinese)
    }
    expect(await snapshot(t)).toEqual(before)
  })
})
