/**
 * Found by an outside tester (fixed since; the test keeps it so): saving the rules unchanged but with an optional
 * setting spelt out at the value its absence means (`mode: 'team'`, `settleClaims: false`, `claimRemoveDeduction: 600`)
 * made a new rule version, a full re-labelling pass and an operation-log row reading 「结算方式：本站规则 → 本站规则」.
 * docs/api.md `config.saveRules`: "Rules equal to the current version answer that version: no new version, no
 * operation-log row, no re-labelling". Bodies are now compared and stored without such defaults (ruleBodyAsStored).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { Rules } from '@shared/entities'
import { openTestDatabases, useTestApp } from '../test/harness'

const ADMIN_PASSWORD = 'Admin-pass-1'

describe.each(openTestDatabases())('rules saved with explicit defaults on $name', (backend) => {
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD })
  let admin = ''
  beforeAll(async () => {
    admin = await t.login('admin', ADMIN_PASSWORD)
  })

  const ruleLogs = async () =>
    (await t.db.database.db.selectFrom('operation_log').select(['detail']).where('action', '=', 'config.rules').execute()).map(
      (r) => r.detail,
    )

  it('rules equal to the current ones but for a default spelt out answer the current version, with no log row', async () => {
    const current = (await t.call<Rules>('GET', '/config/rules', { token: admin })).body.data
    const { version, ...body } = current
    expect(body).not.toHaveProperty('mode')
    expect(body).not.toHaveProperty('settleClaims')

    const saved = await t.call<Rules>('POST', '/config/rules', {
      token: admin,
      body: { ...body, mode: 'team', settleClaims: false, baseVersion: version },
    })
    expect(saved.status, saved.body.msg).toBe(200)
    const logs = await ruleLogs()
    expect(logs, 'operation log rows of config.rules').toEqual([])
    expect(saved.body.data.version).toBe(version)
  })

  it('the deduction spelt out at its default 600 is no change, and not logged as one', async () => {
    const { version, ...body } = (await t.call<Rules>('GET', '/config/rules', { token: admin })).body.data
    const on = await t.call<Rules>('POST', '/config/rules', {
      token: admin,
      body: { ...body, settleClaims: true, claimRemoveDeduction: 600, baseVersion: version },
    })
    expect(on.status, on.body.msg).toBe(200)
    expect(on.body.data.version).toBe(version + 1)
    expect(await ruleLogs()).toEqual([`版本 ${version} → ${version + 1}：发放时结算认领：关闭 → 开启`])
    const { version: _v, claimRemoveDeduction: _d, ...saved } = on.body.data
    const again = await t.call<Rules>('POST', '/config/rules', { token: admin, body: { ...saved, baseVersion: version + 1 } })
    expect(again.body.data.version).toBe(version + 1)
    expect(await ruleLogs()).toHaveLength(1)
  })
})
