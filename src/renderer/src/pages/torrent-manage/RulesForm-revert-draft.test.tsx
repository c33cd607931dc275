/**
 * Found by an outside tester (fixed since; the test keeps it so): 撤销修改 on a restored draft left 发放时结算认领
 * switched on (and the draft's deduction in its box): the form reset to its initial values — the draft — and the rules,
 * which leave those fields out when off, did not clear them. A save right after would have switched it on.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import type { Rules } from '@shared/entities'
import { routes } from '@renderer/router'
import { adminUser, installFakeApi, ok, type FakeApi } from '@renderer/test/fakeApi'
import { renderRoutes } from '@renderer/test/render'
import { sampleRules } from '@renderer/test/rules'

// As the server answers rules with 发放时结算认领 off: no settleClaims, no claimRemoveDeduction (ruleBodyAsStored).
const rules: Rules = { ...sampleRules }

let api: FakeApi
const saves = () => api.call.mock.calls.filter(([name]) => name === 'config.saveRules').map(([, input]) => input as Record<string, unknown>)

beforeEach(() => {
  window.localStorage.clear()
  api = installFakeApi({
    handlers: { 'user.loginInfo': ok(adminUser), 'config.rules': ok(rules), 'torrent.page': ok({ list: [], total: 0 }) },
  })
  api.handle('config.saveRules', (input) => ok({ ...(input as object), version: 4 }))
})

describe('官种设置 · 撤销修改', { timeout: 30_000 }, () => {
  it('撤销修改 on a restored draft turns 发放时结算认领 back off, as the saved rules have it', async () => {
    const { router } = renderRoutes(routes, '/torrent-manage')
    await screen.findByText('v3', undefined, { timeout: 8000 })
    // The admin turns 发放时结算认领 on, types a deduction, and leaves by the menu (the edit is kept as a draft).
    const toggle = screen.getByRole('switch', { name: '发放时结算认领' })
    fireEvent.click(toggle)
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('true'))
    fireEvent.change(screen.getByLabelText('移除未达标认领扣除魔力'), { target: { value: '900' } })
    await act(() => router.navigate('/operation-history'))
    await waitFor(() => expect(screen.queryByTestId('rules-form')).toBeNull())
    await act(() => router.navigate('/torrent-manage'))
    await screen.findByTestId('rules-draft', undefined, { timeout: 8000 })
    expect(screen.getByRole('switch', { name: '发放时结算认领' }).getAttribute('aria-checked')).toBe('true')

    // Changed their mind: 撤销修改 (confirmed) — "表单将恢复为当前规则版本的值".
    fireEvent.click(within(screen.getByTestId('rules-actions')).getByRole('button', { name: '撤销修改' }))
    fireEvent.click(within(await screen.findByRole('tooltip')).getByRole('button', { name: '撤销修改' }))
    await waitFor(() => expect(screen.queryByTestId('rules-draft')).toBeNull())
    expect(screen.getByRole('switch', { name: '发放时结算认领' }).getAttribute('aria-checked')).toBe('false')
    expect((screen.getByLabelText('移除未达标认领扣除魔力') as HTMLInputElement).value).toBe('')

    // And a save right after does not switch claim settlement on behind the admin's back.
    fireEvent.submit(screen.getByTestId('rules-form'))
    await waitFor(() => expect(saves()).toHaveLength(1))
    expect(saves()[0]!.settleClaims).toBeUndefined()
  })
})
