import { beforeEach, describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import type { Rules } from '@shared/entities'
import { defaultPayoutMessageTemplate } from '@shared/payout-template'
import { routes } from '@renderer/router'
import { adminUser, installFakeApi, ok, type FakeApi } from '@renderer/test/fakeApi'
import { renderRoutes } from '@renderer/test/render'
import { sampleRules } from '@renderer/test/rules'

const rules: Rules = { ...sampleRules, keeperRankFactors: [1, 0.8] }

let api: FakeApi
const saves = () => api.call.mock.calls.filter(([name]) => name === 'config.saveRules').map(([, input]) => input as Rules)

function install(current: Rules) {
  api = installFakeApi({
    handlers: { 'user.loginInfo': ok(adminUser), 'config.rules': ok(current), 'torrent.page': ok({ list: [], total: 0 }) },
  })
  api.handle('config.saveRules', (input) => ok({ ...(input as object), version: current.version + 1 }))
}

async function open() {
  renderRoutes(routes, '/torrent-manage')
  await screen.findByText(`v${3}`, undefined, { timeout: 8000 })
  const section = screen.getByTestId('payout-template')
  return {
    section,
    subject: within(section).getByLabelText('站内信标题') as HTMLInputElement,
    body: within(section).getByLabelText('站内信正文') as HTMLTextAreaElement,
    preview: () => screen.getByTestId('payout-template-preview'),
  }
}

describe('官种设置 · 站内信模板', { timeout: 30_000 }, () => {
  beforeEach(() => window.localStorage.clear())

  it('rules without a template show the Chinese default and its preview; saving them unchanged keeps no template', async () => {
    install(rules)
    const { subject, body, preview } = await open()
    expect(subject.value).toBe(defaultPayoutMessageTemplate.subject)
    expect(body.value).toBe(defaultPayoutMessageTemplate.body)
    expect(within(preview()).getByTestId('payout-template-preview-subject').textContent).toBe('保种工资 2026-10：1234.6 魔力已发放')
    const text = within(preview()).getByTestId('payout-template-preview-body').textContent!
    expect(text.startsWith('alice，你好：\n\n你 2026-10 的保种工资 1234.6 魔力已发放到你的账户，魔力 5000.0 → 6234.6。')).toBe(true)
    expect(text).toContain('本月工资排名：第 3 名（共 20 人）。')
    expect(text).toContain('- 远山 Official.2023.720p：站点账号已禁用')

    fireEvent.submit(screen.getByTestId('rules-form'))
    await waitFor(() => expect(saves()).toHaveLength(1))
    expect(saves()[0]!.payoutMessageTemplate).toBeUndefined()
  })

  it('previews an edit as it is typed, refuses an unknown placeholder, and saves a valid template with the rules', async () => {
    install(rules)
    const { subject, body, preview } = await open()
    fireEvent.change(body, { target: { value: '{用户名}：{月份} 工资 {金额}，{奖金}' } })
    await waitFor(() => expect(preview().textContent).toContain('有未知的占位符 {奖金}'))
    fireEvent.submit(screen.getByTestId('rules-form'))
    expect(await screen.findByText(/^站内信正文：有未知的占位符 \{奖金\}/)).toBeTruthy()
    expect(saves()).toEqual([])

    fireEvent.change(subject, { target: { value: '{月份} 保种工资' } })
    fireEvent.change(body, { target: { value: '{用户名}：{月份} 工资 {金额}\n{未达标明细}\n排名 {排名}' } })
    await waitFor(() => expect(screen.getByTestId('payout-template-preview-subject').textContent).toBe('2026-10 保种工资'))
    expect(screen.getByTestId('payout-template-preview-body').textContent).toBe(
      'alice：2026-10 工资 1234.6\n未达标的种子（2 个，不计工资）：\n- 星河 Official.2024.1080p：做种 120.0 小时，未达到 300 小时\n- 远山 Official.2023.720p：站点账号已禁用\n排名 第 3 名（共 20 人）',
    )
    fireEvent.submit(screen.getByTestId('rules-form'))
    await waitFor(() => expect(saves()).toHaveLength(1))
    expect(saves()[0]!.payoutMessageTemplate).toEqual({
      subject: '{月份} 保种工资',
      body: '{用户名}：{月份} 工资 {金额}\n{未达标明细}\n排名 {排名}',
    })
    expect(await screen.findByText('v4')).toBeTruthy()
  })

  it('a saved template is shown as saved; 恢复默认 (confirmed) brings back the default', async () => {
    install({ ...rules, payoutMessageTemplate: { subject: '工资 {金额}', body: '你好 {用户名}' } })
    const { section, subject, body, preview } = await open()
    expect(subject.value).toBe('工资 {金额}')
    expect(within(preview()).getByTestId('payout-template-preview-body').textContent).toBe('你好 alice')
    fireEvent.click(within(section).getByRole('button', { name: '恢复默认' }))
    // Asked first: what the admin typed stays until they confirm.
    const confirm = await screen.findByRole('tooltip')
    expect(body.value).toBe('你好 {用户名}')
    fireEvent.click(within(confirm).getByRole('button', { name: '恢复默认' }))
    await waitFor(() => expect(body.value).toBe(defaultPayoutMessageTemplate.body))
    fireEvent.submit(screen.getByTestId('rules-form'))
    await waitFor(() => expect(saves()).toHaveLength(1))
    expect(saves()[0]!.payoutMessageTemplate).toBeUndefined()
  })

  it('发放时结算认领 is off by default, and turned on saves settleClaims with the deduction', async () => {
    install(rules)
    await open()
    const claims = screen.getByTestId('payout-claims')
    const deduction = within(claims).getByLabelText('移除未达标认领扣除魔力') as HTMLInputElement
    expect(deduction.disabled).toBe(true)
    fireEvent.click(within(claims).getByRole('switch'))
    await waitFor(() => expect(deduction.disabled).toBe(false))
    fireEvent.change(deduction, { target: { value: '300' } })
    fireEvent.submit(screen.getByTestId('rules-form'))
    await waitFor(() => expect(saves()).toHaveLength(1))
    expect(saves()[0]).toMatchObject({ settleClaims: true, claimRemoveDeduction: 300 })
  })

  it("keeps a negative deduction as typed and refuses it with the contract's message, instead of turning it into 0", async () => {
    install(rules)
    await open()
    const claims = screen.getByTestId('payout-claims')
    const deduction = within(claims).getByLabelText('移除未达标认领扣除魔力') as HTMLInputElement
    fireEvent.click(within(claims).getByRole('switch'))
    await waitFor(() => expect(deduction.disabled).toBe(false))
    fireEvent.focus(deduction)
    fireEvent.change(deduction, { target: { value: '-5' } })
    fireEvent.blur(deduction)
    expect(await within(claims).findByText('不能小于 0')).toBeTruthy()
    expect(deduction.value).toBe('-5')
    fireEvent.submit(screen.getByTestId('rules-form'))
    await waitFor(() => expect(deduction.closest('.ant-form-item')!.className).toMatch(/has-error/))
    expect(saves()).toEqual([])
  })
})
