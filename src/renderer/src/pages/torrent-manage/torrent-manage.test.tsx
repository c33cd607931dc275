import { beforeEach, describe, expect, it } from 'vitest'
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import type { Rules } from '@shared/entities'
import { routes } from '@renderer/router'
import { adminUser, fail, installFakeApi, ok, type FakeApi } from '@renderer/test/fakeApi'
import { declaredTableWidth, TABLE_WIDTH_AT_1280 } from '@renderer/test/layout'
import { renderRoutes } from '@renderer/test/render'
import { useSettingsStore } from '@renderer/stores/settings'
import { sampleRules } from '@renderer/test/rules'
import { torrent } from '../task-assignment/fixtures'
import { toFactors } from './RulesForm'

const rules: Rules = { ...sampleRules, officialTeams: ['FRDS', 'CHD'], officialTags: ['官方'], activeWindowMinutes: 60 }
const { version: _version, ...body } = rules

let api: FakeApi
const inputs = (endpoint: string) => api.call.mock.calls.filter(([name]) => name === endpoint).map(([, input]) => input)

beforeEach(() => {
  window.localStorage.clear()
  api = installFakeApi({
    handlers: {
      'user.loginInfo': ok(adminUser),
      'config.rules': ok(rules),
      'torrent.page': ok({
        list: [torrent({}), torrent({ id: 12, name: 'Manual.One', seedType: 2, seedTypeSource: 'manual', completion: 4, banned: true })],
        total: 2,
      }),
    },
  })
})

describe('官种设置', { timeout: 30_000 }, () => {
  it('shows every rule with its Chinese label, help text and the current version', async () => {
    renderRoutes(routes, '/torrent-manage')
    expect(await screen.findByText('v3', undefined, { timeout: 8000 })).toBeTruthy()
    for (const label of [
      '官方制作组',
      '官方标签',
      '最小体积（GiB）',
      '目标保种人数',
      '活跃判定窗口（分钟）',
      '保种顺位系数',
      '基础魔力 B0',
      '时区',
    ])
      expect(screen.getByText(label, { selector: 'label' })).toBeTruthy()
    expect(screen.getByText('做种者最近一次汇报在此分钟数内才算在做种；超过即视为已停止。')).toBeTruthy()
    expect(screen.getByTitle('FRDS')).toBeTruthy()
  })

  it('saves a new version; a refused save keeps the values and shows the server message', async () => {
    api.handle('config.saveRules', fail(400, '时区：不是有效的时区'))
    renderRoutes(routes, '/torrent-manage')
    await screen.findByText('v3', undefined, { timeout: 8000 })
    const timezone = screen.getByLabelText('时区') as HTMLInputElement
    fireEvent.change(timezone, { target: { value: 'Mars/Olympus' } })
    fireEvent.submit(screen.getByTestId('rules-form'))
    expect(await screen.findByText('时区：不是有效的时区')).toBeTruthy()
    // Also on the field itself, far down a long form, not only in the bar by 保存.
    expect(await screen.findByText('不是有效的时区')).toBeTruthy()
    expect(screen.getByTestId('rules-actions').textContent).toContain('时区：不是有效的时区')
    expect(inputs('config.saveRules')).toEqual([{ ...body, timezone: 'Mars/Olympus', baseVersion: 3 }])
    expect(timezone.value).toBe('Mars/Olympus')

    api.handle('config.saveRules', (input) => ok({ ...(input as object), version: 4 }))
    fireEvent.change(timezone, { target: { value: 'Asia/Tokyo' } })
    fireEvent.submit(screen.getByTestId('rules-form'))
    expect(await screen.findByText('v4')).toBeTruthy()
    expect(inputs('config.saveRules').at(-1)).toEqual({ ...body, timezone: 'Asia/Tokyo', baseVersion: 3 })
    expect(screen.queryByTestId('rules-error')).toBeNull()
    // The next save is made on the version just saved.
    fireEvent.change(timezone, { target: { value: 'Asia/Seoul' } })
    fireEvent.submit(screen.getByTestId('rules-form'))
    await waitFor(() => expect(inputs('config.saveRules').at(-1)).toMatchObject({ timezone: 'Asia/Seoul', baseVersion: 4 }))
  })

  it('a save refused because another admin saved a newer version keeps what was typed; 撤销修改 then loads the newer one', async () => {
    const conflict = '官种规则在你编辑期间已被其他管理员保存为 v4（你的修改基于 v3），为免覆盖对方的修改，本次没有保存'
    api.handle('config.saveRules', fail(409, conflict))
    renderRoutes(routes, '/torrent-manage')
    await screen.findByText('v3', undefined, { timeout: 8000 })
    // Meanwhile the other admin's v4 is what the server has.
    api.handle('config.rules', ok({ ...rules, version: 4, targetKeepers: 8 }))
    const minSize = screen.getByLabelText('最小体积（GiB）') as HTMLInputElement
    fireEvent.change(minSize, { target: { value: '3' } })
    fireEvent.submit(screen.getByTestId('rules-form'))
    expect(await screen.findByText(conflict)).toBeTruthy()
    expect(inputs('config.saveRules')).toEqual([expect.objectContaining({ minSizeGiB: 3, baseVersion: 3 })])
    expect(minSize.value).toBe('3')
    expect(await screen.findByText('v4')).toBeTruthy()
    fireEvent.click(within(screen.getByTestId('rules-actions')).getByRole('button', { name: '撤销修改' }))
    fireEvent.click(within(await screen.findByRole('tooltip')).getByRole('button', { name: '撤销修改' }))
    await waitFor(() => expect((screen.getByLabelText('目标保种人数') as HTMLInputElement).value).toBe('8'))
    expect(screen.queryByTestId('rules-error')).toBeNull()
    api.handle('config.saveRules', (input) => ok({ ...(input as object), version: 5 }))
    fireEvent.submit(screen.getByTestId('rules-form'))
    await waitFor(() => expect(inputs('config.saveRules').at(-1)).toMatchObject({ targetKeepers: 8, baseVersion: 4 }))
  })

  it('keeps what was typed through a save refused because the login ended, and the new login', async () => {
    await useSettingsStore.getState().load()
    api.handle('config.saveRules', fail(401, '登录已过期，请重新登录'))
    const { router } = renderRoutes(routes, '/torrent-manage')
    await screen.findByText('v3', undefined, { timeout: 8000 })
    expect(screen.queryByTestId('rules-draft')).toBeNull()
    fireEvent.change(screen.getByLabelText('时区'), { target: { value: 'Asia/Tokyo' } })
    fireEvent.change(screen.getByLabelText('最小体积（GiB）'), { target: { value: '3' } })
    fireEvent.submit(screen.getByTestId('rules-form'))
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))

    api.handle('user.login', ok('token'))
    fireEvent.change(await screen.findByLabelText('用户名'), { target: { value: 'admin' } })
    fireEvent.change(screen.getByLabelText('密码'), { target: { value: 'secret' } })
    fireEvent.click(screen.getByRole('button', { name: '登录' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/torrent-manage'))
    await screen.findByText('v3', undefined, { timeout: 8000 })
    expect(((await screen.findByLabelText('时区')) as HTMLInputElement).value).toBe('Asia/Tokyo')
    expect((screen.getByLabelText('最小体积（GiB）') as HTMLInputElement).value).toBe('3')
    expect(screen.getByTestId('rules-draft').textContent).toContain('已恢复上次未保存的修改')

    // Saved on the version it was made on; the draft is gone with the save.
    api.handle('config.saveRules', (input) => ok({ ...(input as object), version: 4 }))
    fireEvent.submit(screen.getByTestId('rules-form'))
    expect(await screen.findByText('v4')).toBeTruthy()
    expect(inputs('config.saveRules').at(-1)).toEqual({ ...body, timezone: 'Asia/Tokyo', minSizeGiB: 3, baseVersion: 3 })
    expect(screen.queryByTestId('rules-draft')).toBeNull()
    expect(window.sessionStorage.length).toBe(0)
  })

  it('keeps unsaved edits when the page is left by the menu; 撤销修改 drops them', async () => {
    const { router } = renderRoutes(routes, '/torrent-manage')
    await screen.findByText('v3', undefined, { timeout: 8000 })
    fireEvent.change(screen.getByLabelText('时区'), { target: { value: 'Asia/Tokyo' } })
    await act(() => router.navigate('/operation-history'))
    await waitFor(() => expect(screen.queryByTestId('rules-form')).toBeNull())
    await act(() => router.navigate('/torrent-manage'))
    await screen.findByTestId('rules-draft', undefined, { timeout: 8000 })
    expect((screen.getByLabelText('时区') as HTMLInputElement).value).toBe('Asia/Tokyo')

    fireEvent.click(within(screen.getByTestId('rules-actions')).getByRole('button', { name: '撤销修改' }))
    fireEvent.click(within(await screen.findByRole('tooltip')).getByRole('button', { name: '撤销修改' }))
    await waitFor(() => expect((screen.getByLabelText('时区') as HTMLInputElement).value).toBe(rules.timezone))
    expect(screen.queryByTestId('rules-draft')).toBeNull()
    await act(() => router.navigate('/operation-history'))
    await waitFor(() => expect(screen.queryByTestId('rules-form')).toBeNull())
    await act(() => router.navigate('/torrent-manage'))
    await screen.findByText('v3', undefined, { timeout: 8000 })
    expect(screen.queryByTestId('rules-draft')).toBeNull()
    expect((screen.getByLabelText('时区') as HTMLInputElement).value).toBe(rules.timezone)
  })

  it('keeps no draft of a switch turned on and off again (发放时结算认领 absent is off)', async () => {
    const { router } = renderRoutes(routes, '/torrent-manage')
    await screen.findByText('v3', undefined, { timeout: 8000 })
    const toggle = screen.getByRole('switch', { name: '发放时结算认领' })
    fireEvent.click(toggle)
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('true'))
    fireEvent.click(toggle)
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('false'))
    await act(() => router.navigate('/operation-history'))
    await waitFor(() => expect(screen.queryByTestId('rules-form')).toBeNull())
    await act(() => router.navigate('/torrent-manage'))
    await screen.findByText('v3', undefined, { timeout: 8000 })
    expect(screen.queryByTestId('rules-draft')).toBeNull()
    expect(window.sessionStorage.length).toBe(0)
  })

  it('saves the rules once for a fast double Enter, and not again for an Enter while the save runs', async () => {
    let answer!: () => void
    api.handle('config.saveRules', (input) => new Promise((resolve) => (answer = () => resolve(ok({ ...(input as object), version: 4 })))))
    renderRoutes(routes, '/torrent-manage')
    await screen.findByText('v3', undefined, { timeout: 8000 })
    const form = screen.getByTestId('rules-form')
    fireEvent.submit(form) // Enter in a field
    fireEvent.submit(form) // …twice, fast
    const saveButton = within(screen.getByTestId('rules-actions')).getByRole('button', { name: /保\s*存/ })
    await waitFor(() => expect(saveButton.className).toMatch(/ant-btn-loading/))
    fireEvent.click(saveButton) // a click while the save runs (the button ignores it)…
    fireEvent.submit(form) // …and an Enter, which the button does not stop: wait until it has been checked
    expect(form.querySelector('.ant-form-item-is-validating')).not.toBeNull()
    await waitFor(() => expect(form.querySelector('.ant-form-item-is-validating')).toBeNull())
    answer()
    expect(await screen.findByText('v4')).toBeTruthy()
    expect(inputs('config.saveRules')).toHaveLength(1)
  })

  it('says so when a save changed nothing (the server answers the current version)', async () => {
    api.handle('config.saveRules', () => ok(rules))
    renderRoutes(routes, '/torrent-manage')
    await screen.findByText('v3', undefined, { timeout: 8000 })
    fireEvent.submit(screen.getByTestId('rules-form'))
    expect(await screen.findByText('规则没有变化，仍为版本 v3')).toBeTruthy()
    expect(screen.queryByText('已保存为规则版本 v3')).toBeNull()
  })

  it('comes back to the tab it was left on (another screen and back)', async () => {
    const view = renderRoutes(routes, '/torrent-manage')
    await screen.findByText('v3', undefined, { timeout: 8000 })
    fireEvent.click(screen.getByRole('tab', { name: '种子列表' }))
    expect(await screen.findByText('Manual.One')).toBeTruthy()
    view.unmount()
    renderRoutes(routes, '/torrent-manage')
    expect(await screen.findByText('Manual.One', undefined, { timeout: 8000 })).toBeTruthy()
    expect(screen.getByRole('tab', { name: '种子列表' }).getAttribute('aria-selected')).toBe('true')
  })

  it('offers the synced team and tag names and still takes typed ones', async () => {
    api.handle('site.options', ok({ teams: ['CHD', 'FRDS', 'HDSky'], tags: ['官方', '中字'] }))
    api.handle('config.saveRules', (input) => ok({ ...(input as object), version: 4 }))
    renderRoutes(routes, '/torrent-manage')
    await screen.findByText('v3', undefined, { timeout: 8000 })
    await waitFor(() => expect(inputs('site.options')).toHaveLength(1))

    const teams = screen.getByLabelText('官方制作组')
    fireEvent.mouseDown(teams.closest('.ant-select')!)
    const hdsky = await waitFor(() => {
      const option = document.querySelector<HTMLElement>('.ant-select-item-option[title="HDSky"]')
      expect(option).toBeTruthy()
      return option!
    })
    fireEvent.click(hdsky)
    // A name the site does not (yet) have: typed and Enter.
    fireEvent.change(teams, { target: { value: 'NewTeam' } })
    fireEvent.keyDown(teams, { key: 'Enter', code: 'Enter', keyCode: 13 })

    const tags = screen.getByLabelText('官方标签')
    fireEvent.mouseDown(tags.closest('.ant-select')!)
    const zhongzi = await waitFor(() => {
      const option = document.querySelector<HTMLElement>('.ant-select-item-option[title="中字"]')
      expect(option).toBeTruthy()
      return option!
    })
    fireEvent.click(zhongzi)

    fireEvent.submit(screen.getByTestId('rules-form'))
    await waitFor(() => expect(inputs('config.saveRules')).toHaveLength(1))
    expect(inputs('config.saveRules')[0]).toEqual({
      ...body,
      officialTeams: ['FRDS', 'CHD', 'HDSky', 'NewTeam'],
      officialTags: ['官方', '中字'],
      baseVersion: 3,
    })
  })

  it('the preset 「NexusPHP 认领结算」 brings NexusPHP parameters with it', async () => {
    api.handle('config.saveRules', (input) => ok({ ...(input as object), version: 4 }))
    renderRoutes(routes, '/torrent-manage')
    await screen.findByText('v3', undefined, { timeout: 8000 })
    expect(screen.getByText('结算方式', { selector: 'label' })).toBeTruthy()
    fireEvent.change(screen.getByLabelText('倍率'), { target: { value: '3' } })
    fireEvent.mouseDown(screen.getByLabelText('结算方式').closest('.ant-select')!)
    const preset = await waitFor(() => {
      const option = document.querySelector<HTMLElement>('.ant-select-item-option[title="NexusPHP 认领结算"]')
      expect(option).toBeTruthy()
      return option!
    })
    fireEvent.click(preset)
    fireEvent.submit(screen.getByTestId('rules-form'))
    await waitFor(() => expect(inputs('config.saveRules')).toHaveLength(1))
    expect(inputs('config.saveRules')[0]).toEqual({
      ...body,
      mode: 'nexusphpClaims',
      keeperRankFactors: [1],
      multiplier: 1,
      baseVersion: 3,
    })
  })

  it("keeps an out-of-range number as typed and refuses it on the field with the contract's message", async () => {
    api.handle('config.saveRules', (input) => ok({ ...(input as object), version: 4 }))
    renderRoutes(routes, '/torrent-manage')
    await screen.findByText('v3', undefined, { timeout: 8000 })
    const typeAndLeave = (label: string, text: string) => {
      const box = screen.getByLabelText(label) as HTMLInputElement
      fireEvent.focus(box)
      fireEvent.change(box, { target: { value: text } })
      fireEvent.blur(box)
      return box
    }
    const fieldOf = (box: HTMLElement) => box.closest('.ant-form-item') as HTMLElement
    const multiplier = typeAndLeave('倍率', '-2')
    const n0 = typeAndLeave('做种人数参数 N0', '1')
    // Not rewritten to 0 / 2 behind the admin's back: the box keeps what was typed and says why it is refused.
    expect(await within(fieldOf(multiplier)).findByText('不能小于 0')).toBeTruthy()
    expect(await within(fieldOf(n0)).findByText('不能小于 2')).toBeTruthy()
    expect(multiplier.value).toBe('-2')
    expect(n0.value).toBe('1')
    fireEvent.submit(screen.getByTestId('rules-form'))
    await waitFor(() => expect(fieldOf(multiplier).className).toMatch(/has-error/))
    expect(inputs('config.saveRules')).toEqual([])

    // In range again: saved. A 倍率 of 0 is allowed (the contract's) but warned about, since every wage is then 0.
    typeAndLeave('做种人数参数 N0', '2.5')
    typeAndLeave('倍率', '0')
    expect(await within(fieldOf(multiplier)).findByText('倍率为 0 时所有保种员的工资都是 0')).toBeTruthy()
    fireEvent.submit(screen.getByTestId('rules-form'))
    expect(await screen.findByText('v4')).toBeTruthy()
    expect(inputs('config.saveRules')).toEqual([{ ...body, n0: 2.5, multiplier: 0, baseVersion: 3 }])
  })

  it('shows 本站规则 as chosen when the rules have no 结算方式, and saving them unchanged leaves it absent', async () => {
    api.handle('config.saveRules', (input) => ok({ ...(input as object), version: 4 }))
    renderRoutes(routes, '/torrent-manage')
    await screen.findByText('v3', undefined, { timeout: 8000 })
    expect(body.mode).toBeUndefined()
    const modeItem = screen.getByText('结算方式', { selector: 'label' }).closest('.ant-form-item') as HTMLElement
    // A chosen value, not the grey placeholder.
    expect(modeItem.querySelector('.ant-select-placeholder')).toBeNull()
    expect(within(modeItem).getByTitle('本站规则')).toBeTruthy()
    fireEvent.submit(screen.getByTestId('rules-form'))
    await waitFor(() => expect(inputs('config.saveRules')).toHaveLength(1))
    // Absent means 本站规则 to the server: the same rules, so no new version for nothing.
    expect(inputs('config.saveRules')[0]).toEqual({ ...body, baseVersion: 3 })
  })

  it('saves 本站规则 when switching back from 「NexusPHP 认领结算」', async () => {
    api.handle('config.rules', ok({ ...rules, mode: 'nexusphpClaims' }))
    api.handle('config.saveRules', (input) => ok({ ...(input as object), version: 4 }))
    renderRoutes(routes, '/torrent-manage')
    await screen.findByText('v3', undefined, { timeout: 8000 })
    fireEvent.mouseDown(screen.getByLabelText('结算方式').closest('.ant-select')!)
    const team = await waitFor(() => {
      const option = document.querySelector<HTMLElement>('.ant-select-item-option[title="本站规则"]')
      expect(option).toBeTruthy()
      return option!
    })
    fireEvent.click(team)
    fireEvent.submit(screen.getByTestId('rules-form'))
    await waitFor(() => expect(inputs('config.saveRules')).toHaveLength(1))
    expect(inputs('config.saveRules')[0]).toEqual({ ...body, mode: 'team', baseVersion: 3 })
  })

  it('reads typed rank factors as numbers', () => {
    expect(toFactors(['1', 0.8, ' 0.5 ', 'x'])).toEqual([1, 0.8, 0.5, 'x'])
    // Typed with a Chinese IME in full-width mode.
    expect(toFactors(['１', '０．８', '０。６'])).toEqual([1, 0.8, 0.6])
  })

  it('takes a number typed in full-width digits (目标保种人数 ４), rather than emptying the box', async () => {
    api.handle('config.saveRules', (input) => ok({ ...(input as object), version: 4 }))
    renderRoutes(routes, '/torrent-manage')
    await screen.findByText('v3', undefined, { timeout: 8000 })
    const keepers = screen.getByLabelText('目标保种人数') as HTMLInputElement
    fireEvent.focus(keepers)
    fireEvent.change(keepers, { target: { value: '４' } })
    fireEvent.blur(keepers)
    await waitFor(() => expect(keepers.value).toBe('4'))
    fireEvent.submit(screen.getByTestId('rules-form'))
    expect(await screen.findByText('v4')).toBeTruthy()
    expect(inputs('config.saveRules')).toEqual([{ ...body, targetKeepers: 4, baseVersion: 3 }])
  })

  it('种子列表 fits a 1280 px window with 完成情况 in view: 制作组 starts hidden, its search stays', async () => {
    renderRoutes(routes, '/torrent-manage')
    await screen.findByText('v3', undefined, { timeout: 8000 })
    fireEvent.click(screen.getByRole('tab', { name: '种子列表' }))
    await screen.findByText('共 2 条', undefined, { timeout: 8000 })
    expect(declaredTableWidth()).toBeLessThanOrEqual(TABLE_WIDTH_AT_1280)
    const headers = screen.getAllByRole('columnheader').map((cell) => cell.textContent)
    expect(headers).toEqual(expect.arrayContaining(['种子名称', '种子类型', '保种人数', '完成情况']))
    expect(headers).not.toContain('制作组')
    expect(within(screen.getByTestId('data-table-search')).getByPlaceholderText('完整的制作组名')).toBeTruthy()
    // A cut-off name reads whole on hover, the 已禁止 mark aside.
    expect(screen.getByText('Manual.One').closest('td')!.getAttribute('title')).toBe('Manual.One')
  })

  it('lists torrents with a 手动 badge and sets the seed type of the selection', async () => {
    api.handle('torrent.setType', ok({ updated: 2 }))
    renderRoutes(routes, '/torrent-manage')
    await screen.findByText('v3', undefined, { timeout: 8000 })
    fireEvent.click(screen.getByRole('tab', { name: '种子列表' }))
    await screen.findByText('共 2 条', undefined, { timeout: 8000 })
    expect(inputs('torrent.page')[0]).toEqual({ page: 1, pageSize: 20 })
    const manualRow = screen.getByText('Manual.One').closest('tr')!
    expect(within(manualRow).getByTestId('manual-badge').textContent).toBe('手动')
    expect(screen.getAllByTestId('manual-badge')).toHaveLength(1)
    // Banned on the site: marked 已禁止 (an admin's 官种 override does not lift the ban).
    expect(within(manualRow).getByTestId('banned-mark').textContent).toBe('已禁止')
    expect(screen.getAllByTestId('banned-mark')).toHaveLength(1)
    // 保种人数: against the target for 官种 only; a 非官种 shows just its keepers.
    const officialRow = screen.getByText('Planet.Earth.II.2016.2160p').closest('tr')!
    expect(within(officialRow).getByText('1 / 3')).toBeTruthy()
    expect([...manualRow.querySelectorAll('td')].map((cell) => cell.textContent)).toContain('1')
    expect(manualRow.textContent).not.toContain('1 / 3')

    for (const row of screen.getAllByRole('row').slice(1)) fireEvent.click(within(row).getByRole('checkbox'))
    // Asked first: nothing is sent until confirmed, and 取消 sends nothing.
    fireEvent.click(screen.getByRole('button', { name: '设为非官种' }))
    const unofficial = await screen.findByText('将 2 个种子设为非官种？')
    fireEvent.click(within(unofficial.closest('.ant-popover')! as HTMLElement).getByRole('button', { name: /取\s*消/ }))
    fireEvent.click(screen.getByRole('button', { name: '设为官种' }))
    const official = await screen.findByText('将 2 个种子设为官种？')
    expect(inputs('torrent.setType')).toEqual([])
    fireEvent.click(within(official.closest('.ant-popover')! as HTMLElement).getByRole('button', { name: '设为官种' }))
    await waitFor(() => expect(inputs('torrent.setType')).toEqual([{ ids: [11, 12], seedType: 1 }]))
    expect(await screen.findByText('已将 2 个种子设为官种')).toBeTruthy()
  })
})
