import { beforeEach, describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { routes } from '@renderer/router'
import { adminUser, installFakeApi, ok, type FakeApi } from '@renderer/test/fakeApi'
import { declaredTableWidth, TABLE_WIDTH_AT_1280 } from '@renderer/test/layout'
import { renderRoutes } from '@renderer/test/render'
import { torrent } from './fixtures'

const spaced = (text: string) => new RegExp(`^${[...text].join('\\s*')}$`)

let api: FakeApi
const inputs = (endpoint: string) => api.call.mock.calls.filter(([name]) => name === endpoint).map(([, input]) => input)

beforeEach(() => {
  window.localStorage.clear()
  api = installFakeApi({
    handlers: {
      'user.loginInfo': ok(adminUser),
      'torrent.page': ok({
        list: [torrent({}), torrent({ id: 12, name: 'Cosmos.2019.1080p', assigned: 1, completion: 1, keepers: 3 })],
        total: 2,
      }),
      'task.members': ok([
        { id: 2, username: 'alice', role: 'normal', assignedCount: 4, seedingCount: 12 },
        { id: 3, username: 'bob', role: 'normal', assignedCount: 0, seedingCount: 3 },
      ]),
      'user.list': ok([
        { id: 2, username: 'alice' },
        { id: 3, username: 'bob' },
      ]),
      'task.assignees': ok([
        { torrentId: 12, userId: 2, username: 'alice', status: 2, assignedAt: '2026-11-01T02:00:00Z' },
        { torrentId: 12, userId: 3, username: 'bob', status: 2, assignedAt: '2026-11-02T02:00:00Z' },
      ]),
    },
  })
})

async function openPage() {
  renderRoutes(routes, '/task-assignment')
  await screen.findByText('共 2 条', undefined, { timeout: 8000 })
}
const rowOf = (name: string) => screen.getByText(name).closest('tr')!

describe('任务分配', { timeout: 30_000 }, () => {
  it('lists official torrents with their labels', async () => {
    await openPage()
    expect(inputs('torrent.page')[0]).toEqual({ page: 1, pageSize: 20, seedType: 1 })
    expect(within(rowOf('Planet.Earth.II.2016.2160p')).getByText('1 / 3')).toBeTruthy()
    expect(within(rowOf('Cosmos.2019.1080p')).getByText('官种已完成').className).toContain('ant-tag-green')
  })

  it('fits a 1280 px window with 保种员 and 做种数: 分配状态 starts hidden, its filter stays, 列设置 shows it', async () => {
    await openPage()
    expect(declaredTableWidth()).toBeLessThanOrEqual(TABLE_WIDTH_AT_1280)
    const headers = () => screen.getAllByRole('columnheader').map((cell) => cell.textContent)
    expect(headers()).toEqual(expect.arrayContaining(['种子名称', '保种人数', '完成情况', '保种员', '做种数']))
    expect(headers()).not.toContain('分配状态')
    expect(within(screen.getByTestId('data-table-search')).getByText('分配状态')).toBeTruthy()
    // A cut-off name reads whole on hover.
    expect(rowOf('Planet.Earth.II.2016.2160p').querySelector('td[title="Planet.Earth.II.2016.2160p"]')).toBeTruthy()

    fireEvent.click(screen.getByRole('button', { name: '列设置' }))
    fireEvent.click(within(await screen.findByTestId('column-settings')).getByRole('checkbox', { name: '分配状态' }))
    expect(await screen.findByRole('columnheader', { name: '分配状态' })).toBeTruthy()
    expect(within(rowOf('Planet.Earth.II.2016.2160p')).getByText('未分配')).toBeTruthy()
  })

  it('shows who each torrent is assigned to, asking for them in one call', async () => {
    await openPage()
    expect(inputs('task.assignees')).toEqual([{ torrentIds: [11, 12] }])
    const names = within(rowOf('Cosmos.2019.1080p')).getByTestId('assignees')
    expect([...names.querySelectorAll('.ant-tag')].map((tag) => tag.textContent)).toEqual(['alice', 'bob'])
    expect(within(rowOf('Planet.Earth.II.2016.2160p')).queryByTestId('assignees')).toBeNull()
  })

  it('marks an assignee whose account is 已删除 or 封禁: struck through, the state named on the tag and in its tooltip', async () => {
    api.handle(
      'task.assignees',
      ok([
        { torrentId: 12, userId: 2, username: 'alice', status: 2, assignedAt: '2026-11-01T02:00:00Z' },
        { torrentId: 12, userId: 4, username: 'gone', status: 1, assignedAt: '2026-11-02T02:00:00Z' },
        { torrentId: 12, userId: 5, username: 'banned', status: 0, assignedAt: '2026-11-03T02:00:00Z' },
      ]),
    )
    await openPage()
    const tags = [...within(rowOf('Cosmos.2019.1080p')).getByTestId('assignees').querySelectorAll<HTMLElement>('.ant-tag')]
    expect(tags.map((tag) => tag.textContent)).toEqual(['alice', 'gone（已删除）', 'banned（已封禁）'])
    expect(tags.map((tag) => tag.dataset.inactive ?? null)).toEqual([null, 'true', 'true'])
    expect(within(tags[1]!).getByText('gone').style.textDecoration).toBe('line-through')
    fireEvent.mouseEnter(tags[1]!)
    expect((await screen.findByRole('tooltip')).textContent).toMatch(/^账号已删除，不再为本组保种：这项分配不算有人保种/)
    // Still removable like any other.
    expect(within(rowOf('Cosmos.2019.1080p')).getByLabelText('移除 gone 的分配')).toBeTruthy()
  })

  it('shows the first four of many names and 「+N」, which shows the rest (and 收起 again)', async () => {
    const many = Array.from({ length: 10 }, (_, i) => ({
      torrentId: 12,
      userId: 10 + i,
      username: `keeper${i}`,
      status: 2 as const,
      assignedAt: '2026-11-01T02:00:00Z',
    }))
    api.handle('task.assignees', ok(many))
    await openPage()
    const names = () =>
      [...within(rowOf('Cosmos.2019.1080p')).getByTestId('assignees').querySelectorAll('.ant-tag')].map((t) => t.textContent)
    expect(names()).toEqual(['keeper0', 'keeper1', 'keeper2', 'keeper3', '+6'])
    fireEvent.click(within(rowOf('Cosmos.2019.1080p')).getByTestId('assignees-toggle'))
    expect(names()).toEqual([...many.map((a) => a.username), '收起'])
    // Each name shown stays removable on its own.
    expect(within(rowOf('Cosmos.2019.1080p')).getByLabelText('移除 keeper9 的分配')).toBeTruthy()
    fireEvent.click(within(rowOf('Cosmos.2019.1080p')).getByTestId('assignees-toggle'))
    expect(names()).toHaveLength(5)
  })

  it('removes one member from a torrent after a confirmation, leaving the others', async () => {
    api.handle('task.unassign', ok({ removed: 1 }))
    await openPage()
    fireEvent.click(within(rowOf('Cosmos.2019.1080p')).getByLabelText('移除 bob 的分配'))
    const confirm = (await screen.findAllByText('取消 bob 的分配？'))[0]!.closest('.ant-modal') as HTMLElement
    expect(within(confirm).getByText(/只移除 bob 这一项分配，其他保种员不受影响/)).toBeTruthy()
    expect(inputs('task.unassign')).toEqual([])
    fireEvent.click(within(confirm).getByRole('button', { name: /取消分配/ }))
    await waitFor(() => expect(inputs('task.unassign')).toEqual([{ torrentIds: [12], userIds: [3] }]))
    expect(await screen.findByText('已取消 bob 的分配')).toBeTruthy()
    await waitFor(() => expect(inputs('torrent.page')).toHaveLength(2))
  })

  it('marks a torrent the site has banned as 已禁止', async () => {
    api.handle('torrent.page', ok({ list: [torrent({}), torrent({ id: 13, name: 'Banned.Story.2020.1080p', banned: true })], total: 2 }))
    await openPage()
    const marks = screen.getAllByTestId('banned-mark')
    expect(marks).toHaveLength(1)
    expect(marks[0].textContent).toBe('已禁止')
    expect(marks[0].closest('tr')!.textContent).toContain('Banned.Story.2020.1080p')
  })

  it('assigns the selected torrents to the chosen members', async () => {
    api.handle('task.assign', ok({ created: 3, existed: 1 }))
    await openPage()
    fireEvent.click(within(rowOf('Planet.Earth.II.2016.2160p')).getByRole('checkbox'))
    fireEvent.click(within(rowOf('Cosmos.2019.1080p')).getByRole('checkbox'))
    fireEvent.click(screen.getByRole('button', { name: /分配给/ }))
    const dialog = await screen.findByRole('dialog')
    await waitFor(() => expect(inputs('task.members')).toHaveLength(1))
    expect(inputs('user.list')).toEqual([])
    fireEvent.mouseDown(dialog.querySelector('.ant-select')!)
    await waitFor(() => expect(document.querySelector('.ant-select-item-option[title="alice"]')).toBeTruthy())
    // Each member's load, so the admin can spread the work.
    expect(document.querySelector('.ant-select-item-option[title="alice"]')!.textContent).toBe('alice已分配 4 · 做种 12')
    // The open list reserves its room, pushing 分配 below it instead of covering it.
    expect(within(dialog).getByTestId('member-picker').style.paddingBottom).toBe('240px')
    fireEvent.click(document.querySelector('.ant-select-item-option[title="alice"]')!)
    fireEvent.click(document.querySelector('.ant-select-item-option[title="bob"]')!)
    fireEvent.click(within(dialog).getByRole('button', { name: spaced('分配') }))
    await waitFor(() => expect(inputs('task.assign')).toEqual([{ torrentIds: [11, 12], userIds: [2, 3] }]))
    expect(await screen.findByText('已新建 3 项分配，1 项原已存在')).toBeTruthy()
  })

  it('confirms before unassigning', async () => {
    api.handle('task.unassign', ok({ removed: 2 }))
    await openPage()
    fireEvent.click(within(rowOf('Cosmos.2019.1080p')).getByRole('checkbox'))
    fireEvent.click(screen.getByRole('button', { name: /取消分配/ }))
    const confirm = (await screen.findAllByText('取消 1 个种子的分配？'))[0]!.closest('.ant-modal') as HTMLElement
    expect(inputs('task.unassign')).toEqual([])
    fireEvent.click(within(confirm).getByRole('button', { name: /取消分配/ }))
    await waitFor(() => expect(inputs('task.unassign')).toEqual([{ torrentIds: [12] }]))
  })

  it('keeps 取消分配 off, saying why, until a selected torrent has an assignment', async () => {
    await openPage()
    const unassign = () => screen.getByRole('button', { name: /取消分配/ }) as HTMLButtonElement
    expect(unassign().disabled).toBe(true)
    // Only an unassigned torrent: nothing to take back.
    fireEvent.click(within(rowOf('Planet.Earth.II.2016.2160p')).getByRole('checkbox'))
    await waitFor(() => expect(screen.getByText(/官种（已选 1 个）/)).toBeTruthy())
    expect(unassign().disabled).toBe(true)
    fireEvent.mouseEnter(unassign().closest('[data-testid="disabled-reason"]')!)
    expect(await screen.findByText('选中的种子都还没有分配给保种员，没有可取消的分配')).toBeTruthy()
    // With an assigned one too, it is on.
    fireEvent.click(within(rowOf('Cosmos.2019.1080p')).getByRole('checkbox'))
    await waitFor(() => expect(unassign().disabled).toBe(false))
  })

  it('previews the auto-assign plan and commits it on 确认分配', async () => {
    api.handle('task.autoAssign', (input) =>
      ok(
        (input as { preview: boolean }).preview
          ? { plan: [{ torrentId: 11, userId: 3 }], created: 0 }
          : { plan: [{ torrentId: 11, userId: 3 }], created: 1 },
      ),
    )
    await openPage()
    fireEvent.click(screen.getByRole('button', { name: /自动分配/ }))
    const dialog = await screen.findByRole('dialog')
    expect(
      await within(dialog).findByText(
        '共 1 项分配，涉及 1 个种子、1 位保种员。按当前负载均衡，不会分给已在做种的保种员，站点已禁止或未审核通过的种子不参与；确认后才会写入。',
      ),
    ).toBeTruthy()
    expect(within(dialog).getByText('Planet.Earth.II.2016.2160p')).toBeTruthy()
    expect(within(dialog).getByText('bob')).toBeTruthy()
    expect(inputs('task.autoAssign')).toEqual([{ preview: true }])
    fireEvent.click(within(dialog).getByRole('button', { name: /确认分配/ }))
    await waitFor(() => expect(inputs('task.autoAssign')).toEqual([{ preview: true }, { preview: false }]))
    expect(await screen.findByText('已自动分配 1 项任务')).toBeTruthy()
  })

  it("shows the names the server gives each pair, a torrent assigned only to an inactive member's included", async () => {
    // Torrent 99 is not among the 未分配 official torrents (it is 已分配, to a deleted member): the server names it.
    const plan = [{ torrentId: 99, userId: 3, torrentName: 'Orphaned.2021.1080p', username: 'bob' }]
    api.handle('task.autoAssign', ok({ plan, created: 0 }))
    await openPage()
    const pagesBefore = inputs('torrent.page').length
    fireEvent.click(screen.getByRole('button', { name: /自动分配/ }))
    const dialog = await screen.findByRole('dialog')
    expect(await within(dialog).findByText('Orphaned.2021.1080p')).toBeTruthy()
    expect(within(dialog).queryByText('种子 #99')).toBeNull()
    expect(within(dialog).getByText('bob')).toBeTruthy()
    // Named by the server: no list read to name them.
    expect(inputs('torrent.page').length).toBe(pagesBefore)
  })
})
