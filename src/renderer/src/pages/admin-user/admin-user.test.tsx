import { beforeEach, describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import type { User } from '@shared/entities'
import { routes } from '@renderer/router'
import { adminUser, fail, installFakeApi, ok, type FakeApi } from '@renderer/test/fakeApi'
import { renderRoutes } from '@renderer/test/render'

const spaced = (text: string) => new RegExp(`^${[...text].join('\\s*')}$`)
const admin = (patch: Partial<User>): User => ({
  ...adminUser,
  remark: '',
  createdAt: '2025-01-01T00:00:00+08:00',
  adminSince: '2025-01-01T00:00:00+08:00',
  seedingCount: 0,
  seedingSize: 0,
  assignedCount: 0,
  ...patch,
})

/** Members as the server has them; page-normal answers as the server does (role normal, status and name filters). */
let members: User[]
const member = (id: number, username: string, status: User['status'] = 2): User =>
  admin({ id, username, status, role: 'normal', adminSince: null })
const pageNormal = (input: unknown) => {
  const { status, username, pageSize } = input as { status?: number; username?: string; pageSize: number }
  const found = members.filter((m) => (status === undefined || m.status === status) && (!username || m.username.includes(username)))
  return ok({ list: found.slice(0, pageSize), total: found.length })
}

let api: FakeApi
const inputs = (endpoint: string) => api.call.mock.calls.filter(([name]) => name === endpoint).map(([, input]) => input)

beforeEach(() => {
  window.localStorage.clear()
  api = installFakeApi({
    handlers: {
      'user.loginInfo': ok(adminUser),
      'user.pageAdmin': ok({ list: [admin({}), admin({ id: 5, username: 'dora' })], total: 2 }),
      'user.pageNormal': pageNormal,
    },
  })
  members = [member(7, 'erin'), member(9, 'frank', 0), member(10, 'gina', 1)]
})

// The name cell is fixed on the left; with ellipsis antd wraps its text in a span.
const rowOf = (name: string) => screen.getByText(name, { selector: 'td, td > span' }).closest('tr')!

/** Opens 管理员 and its 添加管理员 dialog, once the member options have been asked for. */
async function openAddAdmin(): Promise<HTMLElement> {
  renderRoutes(routes, '/admin-user')
  await screen.findByText('共 2 条', undefined, { timeout: 8000 })
  fireEvent.click(screen.getByRole('button', { name: /添加管理员/ }))
  const dialog = await screen.findByRole('dialog')
  await waitFor(() => expect(inputs('user.pageNormal')).toHaveLength(1))
  return dialog
}

describe('管理员', { timeout: 30_000 }, () => {
  it('disables 移除 on your own row and confirms before removing another admin', async () => {
    api.handle('config.delAdmin', fail(409, '不能移除最后一位管理员'))
    renderRoutes(routes, '/admin-user')
    await screen.findByText('共 2 条', undefined, { timeout: 8000 })
    expect((within(rowOf('admin')).getByRole('button', { name: spaced('移除') }) as HTMLButtonElement).disabled).toBe(true)

    fireEvent.click(within(rowOf('dora')).getByRole('button', { name: spaced('移除') }))
    expect(inputs('config.delAdmin')).toEqual([])
    const popover = (await screen.findByText('移除管理员 dora？')).closest('.ant-popover') as HTMLElement
    fireEvent.click(within(popover).getByRole('button', { name: spaced('移除') }))
    await waitFor(() => expect(inputs('config.delAdmin')).toEqual([{ userId: 5 }]))
    expect(await screen.findByText('不能移除最后一位管理员')).toBeTruthy() // the server's message
  })

  it('adds a member picked from the options, which are only members whose account is 正常', async () => {
    api.handle('config.addAdmin', ok(admin({ id: 7, username: 'erin' })))
    const dialog = await openAddAdmin()
    expect(inputs('user.pageNormal')[0]).toMatchObject({ status: 2 })
    fireEvent.mouseDown(dialog.querySelector('.ant-select')!)
    const options = await screen.findAllByRole('option')
    await waitFor(() => expect(document.querySelectorAll('.ant-select-item-option')).toHaveLength(1))
    expect(options.length).toBeGreaterThan(0)
    fireEvent.click(document.querySelector('.ant-select-item-option[title="erin"]')!)
    fireEvent.click(within(dialog).getByRole('button', { name: spaced('添加') }))
    await waitFor(() => expect(inputs('config.addAdmin')).toEqual([{ userId: 7 }]))
  })

  it('by keyboard: a name typed, Enter picks the member from the list, the next Enter adds them', async () => {
    api.handle('config.addAdmin', ok(admin({ id: 7, username: 'erin' })))
    members.push(member(8, 'erik'))
    const dialog = await openAddAdmin()
    const box = within(dialog).getByRole('combobox')
    const enter = () => {
      fireEvent.keyDown(box, { key: 'Enter', code: 'Enter', keyCode: 13 })
      fireEvent.keyUp(box, { key: 'Enter', code: 'Enter', keyCode: 13 })
    }
    fireEvent.change(box, { target: { value: 'erin' } })
    await waitFor(() => expect(box.getAttribute('aria-expanded')).toBe('true'))
    enter() // picks the one match
    await waitFor(() => expect(box.getAttribute('aria-expanded')).toBe('false'))
    expect(within(dialog).getByTitle('erin')).toBeTruthy()
    expect(inputs('config.addAdmin')).toEqual([])
    enter() // submits, rather than opening the list again
    await waitFor(() => expect(inputs('config.addAdmin')).toEqual([{ userId: 7 }]))
    expect(box.getAttribute('aria-expanded')).not.toBe('true')
    expect(await screen.findByText('erin 已成为管理员')).toBeTruthy()
  })

  it('does not offer a banned or deleted member, also when searched by name', async () => {
    const dialog = await openAddAdmin()
    const box = within(dialog).getByRole('combobox')
    fireEvent.change(box, { target: { value: 'frank' } })
    await waitFor(() => expect(inputs('user.pageNormal').at(-1)).toMatchObject({ status: 2, username: 'frank' }))
    expect(await screen.findByText(/没有可添加的保种员/)).toBeTruthy()
    expect(document.querySelector('.ant-select-item-option[title="frank"]')).toBeNull()
    expect(within(dialog).getByText(/只列出账号状态正常的保种员/)).toBeTruthy()
  })

  it('by keyboard: Enter with nobody chosen opens the list (nothing sent)', async () => {
    const dialog = await openAddAdmin()
    const box = within(dialog).getByRole('combobox')
    fireEvent.keyDown(box, { key: 'Enter', code: 'Enter', keyCode: 13 })
    await waitFor(() => expect(box.getAttribute('aria-expanded')).toBe('true'))
    expect(inputs('config.addAdmin')).toEqual([])
  })
})
