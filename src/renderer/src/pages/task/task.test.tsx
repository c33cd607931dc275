import { beforeEach, describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import type { SeedRecord } from '@shared/entities'
import { routes } from '@renderer/router'
import { adminUser, installFakeApi, memberUser, ok, type FakeApi } from '@renderer/test/fakeApi'
import { declaredTableWidth, TABLE_WIDTH_AT_1280 } from '@renderer/test/layout'
import { renderRoutes } from '@renderer/test/render'
import { formatDateTime } from '@renderer/utils/format'
import { statusFromQuery } from '.'

const GiB = 1024 ** 3

const record = (patch: Partial<SeedRecord>): SeedRecord => ({
  id: 1,
  userId: memberUser.id,
  username: memberUser.username,
  torrentId: 11,
  siteTorrentId: 5011,
  torrentName: 'Planet.Earth.II.2016.2160p.UHD.BluRay.x265-TEAM',
  size: 1.5 * GiB,
  seedType: 1,
  status: 3,
  claimState: 2,
  assigned: 1,
  uploaded: 3 * GiB,
  downloaded: 1.5 * GiB,
  seedTimeSec: (3 * 24 + 5) * 3600,
  lastAction: '2025-03-02T10:20:00+08:00',
  assignedAt: null,
  ...patch,
})

const records: SeedRecord[] = [
  record({}),
  record({ id: 2, torrentName: '流浪地球2.2023.WEB-DL.2160p', seedType: 2, status: 4, claimState: 1 }),
  record({ id: 3, torrentName: 'Some.Show.S01.1080p', status: 5 }),
]

let api: FakeApi
const pageSeedInputs = () => api.call.mock.calls.filter(([endpoint]) => endpoint === 'user.pageSeed').map(([, input]) => input)
const lastPageSeedInput = () => pageSeedInputs().at(-1)

function selectOf(label: string): HTMLElement {
  return screen.getByText(label, { selector: 'label' }).closest('.ant-form-item')!.querySelector('.ant-select')!
}

beforeEach(() => {
  window.localStorage.clear()
  api = installFakeApi({ handlers: { 'user.loginInfo': ok(memberUser), 'user.pageSeed': ok({ list: records, total: 3 }) } })
})

describe('我的任务', () => {
  it("lists the member's own records with Chinese labels and coloured status tags", async () => {
    renderRoutes(routes, '/task')
    expect(await screen.findByText('Planet.Earth.II.2016.2160p.UHD.BluRay.x265-TEAM')).toBeTruthy()
    await waitFor(() => expect(document.title).toBe('我的任务 - 保种管理台'))
    expect(lastPageSeedInput()).toEqual({ page: 1, pageSize: 20, userId: memberUser.id })

    const headers = screen.getAllByRole('columnheader').map((cell) => cell.textContent)
    // 种子类型 as 官种设置's 种子列表 names it.
    expect(headers).toEqual(['种子名称', '体积', '种子类型', '状态', '认领状态', '做种时长', '最后活动', '分配时间'])
    expect(screen.getByText('共 3 条')).toBeTruthy()

    const [first, second, third] = screen.getAllByRole('row').slice(1)
    const firstRow = within(first!)
    expect(firstRow.getByText('官种')).toBeTruthy()
    expect(firstRow.getByText('做种中').className).toContain('ant-tag-green')
    expect(firstRow.getByText('已认领')).toBeTruthy()
    expect(firstRow.getByText('1.50 GiB')).toBeTruthy()
    expect(firstRow.getByText('3 天 5 小时')).toBeTruthy()
    expect(firstRow.getByText(formatDateTime(records[0]!.lastAction))).toBeTruthy() // local time
    expect(firstRow.getByText('-')).toBeTruthy() // never assigned

    expect(within(second!).getByText('非官种')).toBeTruthy()
    expect(within(second!).getByText('做种中（未认领）').className).toContain('ant-tag-lime')
    expect(within(second!).getByText('未认领')).toBeTruthy()
    expect(within(third!).getByText('无工资').className).toContain('ant-tag-red')
  })

  it('fits a 1280 px window with 分配时间 in view: 上传量 starts hidden, one click away in 列设置', async () => {
    renderRoutes(routes, '/task')
    await screen.findByText('共 3 条')
    expect(declaredTableWidth()).toBeLessThanOrEqual(TABLE_WIDTH_AT_1280)
    expect(screen.queryByRole('columnheader', { name: /上传量/ })).toBeNull()

    fireEvent.click(screen.getByRole('button', { name: '列设置' }))
    const settings = await screen.findByTestId('column-settings')
    fireEvent.click(within(settings).getByRole('checkbox', { name: '上传量' }))
    expect(await screen.findByRole('columnheader', { name: /上传量/ })).toBeTruthy()
    expect(within(screen.getAllByRole('row')[1]!).getByText('3.00 GiB')).toBeTruthy()
  })

  it('names the claim column as its filter: 认领状态', async () => {
    renderRoutes(routes, '/task')
    await screen.findByText('共 3 条')
    expect(screen.getByRole('columnheader', { name: '认领状态' })).toBeTruthy()
    expect(selectOf('认领状态')).toBeTruthy()
  })

  it('filters by status, seed type, claim state, assignment and torrent name', async () => {
    renderRoutes(routes, '/task')
    await screen.findByText('共 3 条')
    const search = within(screen.getByTestId('data-table-search'))

    fireEvent.mouseDown(selectOf('状态'))
    fireEvent.click(await screen.findByTitle('已停止'))
    fireEvent.mouseDown(selectOf('种子类型'))
    fireEvent.click(await screen.findByTitle('官种'))
    fireEvent.mouseDown(selectOf('认领状态'))
    fireEvent.click(await screen.findByTitle('已认领'))
    fireEvent.mouseDown(selectOf('分配状态'))
    fireEvent.click(await screen.findByTitle('已分配'))
    fireEvent.change(search.getByPlaceholderText('名称包含的文字'), { target: { value: 'Planet' } })
    fireEvent.click(search.getByRole('button', { name: '查询' }))

    await waitFor(() =>
      expect(lastPageSeedInput()).toEqual({
        page: 1,
        pageSize: 20,
        userId: memberUser.id,
        status: 7,
        seedType: 1,
        claimState: 2,
        assigned: 1,
        torrentName: 'Planet',
      }),
    )
  })

  it('sorts by the whitelisted columns only, sending orderBy', async () => {
    renderRoutes(routes, '/task')
    await screen.findByText('共 3 条')
    const seedTime = screen.getByRole('columnheader', { name: /做种时长/ })
    fireEvent.click(seedTime)
    fireEvent.click(seedTime)
    await waitFor(() => expect(lastPageSeedInput()).toEqual({ page: 1, pageSize: 20, userId: memberUser.id, orderBy: 'seedTimeSec DESC' }))
    const sortable = screen
      .getAllByRole('columnheader')
      .filter((cell) => cell.className.includes('ant-table-column-has-sorters'))
      .map((cell) => cell.textContent)
    expect(sortable).toEqual(['体积', '状态', '做种时长', '最后活动', '分配时间'])
  })

  it('opens filtered by ?status= (the dashboard links here)', async () => {
    renderRoutes(routes, '/task?status=4')
    await screen.findByText('共 3 条')
    expect(lastPageSeedInput()).toEqual({ page: 1, pageSize: 20, userId: memberUser.id, status: 4 })
    expect(selectOf('状态').textContent).toContain('做种中（未认领）')
  })

  it("sends an admin's own id, so an admin sees only their own records here too", async () => {
    api.handle('user.loginInfo', ok(adminUser))
    renderRoutes(routes, '/task')
    await screen.findByText('共 3 条')
    expect(pageSeedInputs()).toEqual([{ page: 1, pageSize: 20, userId: adminUser.id }])
  })

  it('shows the empty state when there are no records', async () => {
    api.handle('user.pageSeed', ok({ list: [], total: 0 }))
    renderRoutes(routes, '/task')
    expect(await screen.findByText('暂无数据', { selector: '.ant-empty-description' })).toBeTruthy()
    expect(screen.queryByTestId('no-site-uid')).toBeNull()
  })

  it('tells a member without a site UID why there are no records and whom to ask', async () => {
    api.handle('user.loginInfo', ok({ ...memberUser, siteUid: null }))
    api.handle('user.pageSeed', ok({ list: [], total: 0 }))
    renderRoutes(routes, '/task')
    const alert = await screen.findByTestId('no-site-uid')
    expect(alert.textContent).toContain('你的账号还没有绑定站点 UID')
    expect(alert.textContent).toContain('请联系管理员')
    expect(await screen.findByText('账号未绑定站点 UID，暂时没有做种记录', { selector: '.ant-empty-description' })).toBeTruthy()
  })

  it('says nothing of a site UID to an admin without one', async () => {
    api.handle('user.loginInfo', ok(adminUser))
    renderRoutes(routes, '/task')
    await screen.findByText('共 3 条')
    expect(screen.queryByTestId('no-site-uid')).toBeNull()
  })
})

describe('statusFromQuery', () => {
  it('accepts the eight statuses only', () => {
    expect(statusFromQuery('3')).toBe(3)
    expect(statusFromQuery('8')).toBe(8)
    expect(statusFromQuery('9')).toBeUndefined()
    expect(statusFromQuery('abc')).toBeUndefined()
    expect(statusFromQuery(null)).toBeUndefined()
  })
})
