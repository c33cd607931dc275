import { beforeEach, describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { routes } from '@renderer/router'
import { adminUser, installFakeApi, ok, type FakeApi } from '@renderer/test/fakeApi'
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
      'torrent.page': ok({ list: [torrent({}), torrent({ id: 12, name: 'Cosmos.2019.1080p', assigned: 1, completion: 1, keepers: 3 })], total: 2 }),
      'user.list': ok([
        { id: 2, username: 'alice' },
        { id: 3, username: 'bob' },
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
    expect(within(rowOf('Planet.Earth.II.2016.2160p')).getByText('未分配')).toBeTruthy()
    expect(within(rowOf('Planet.Earth.II.2016.2160p')).getByText('1 / 3')).toBeTruthy()
    expect(within(rowOf('Cosmos.2019.1080p')).getByText('官种已完成').className).toContain('ant-tag-green')
  })

  it('assigns the selected torrents to the chosen members', async () => {
    api.handle('task.assign', ok({ created: 3, existed: 1 }))
    await openPage()
    fireEvent.click(within(rowOf('Planet.Earth.II.2016.2160p')).getByRole('checkbox'))
    fireEvent.click(within(rowOf('Cosmos.2019.1080p')).getByRole('checkbox'))
    fireEvent.click(screen.getByRole('button', { name: /分配给/ }))
    const dialog = await screen.findByRole('dialog')
    await waitFor(() => expect(inputs('user.list')).toHaveLength(1))
    fireEvent.mouseDown(dialog.querySelector('.ant-select')!)
    await waitFor(() => expect(document.querySelector('.ant-select-item-option[title="alice"]')).toBeTruthy())
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

  it('previews the auto-assign plan and commits it on 确认分配', async () => {
    api.handle('task.autoAssign', (input) =>
      ok((input as { preview: boolean }).preview ? { plan: [{ torrentId: 11, userId: 3 }], created: 0 } : { plan: [{ torrentId: 11, userId: 3 }], created: 1 }),
    )
    await openPage()
    fireEvent.click(screen.getByRole('button', { name: /自动分配/ }))
    const dialog = await screen.findByRole('dialog')
    expect(await within(dialog).findByText('共 1 项分配，涉及 1 个种子、1 位保种员。按当前负载均衡，不会分给已在做种的保种员；确认后才会写入。')).toBeTruthy()
    expect(within(dialog).getByText('Planet.Earth.II.2016.2160p')).toBeTruthy()
    expect(within(dialog).getByText('bob')).toBeTruthy()
    expect(inputs('task.autoAssign')).toEqual([{ preview: true }])
    fireEvent.click(within(dialog).getByRole('button', { name: /确认分配/ }))
    await waitFor(() => expect(inputs('task.autoAssign')).toEqual([{ preview: true }, { preview: false }]))
    expect(await screen.findByText('已自动分配 1 项任务')).toBeTruthy()
  })
})
