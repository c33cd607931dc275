/**
 * Found by an outside tester (fixed since; the test keeps it so): a 站点 UID typed in the box (offered as 「使用 UID …」)
 * and left without picking it — straight to 保存/创建 with the mouse — was dropped: the old uid saved and 已保存 shown,
 * or the member created without one, though the field says 「也可直接输入 UID」. And in 新建保种员 Enter on the field
 * opened the list again instead of creating, unlike 编辑保种员.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import type { User } from '@shared/entities'
import { routes } from '@renderer/router'
import { adminUser, installFakeApi, memberUser, ok, type FakeApi } from '@renderer/test/fakeApi'
import { renderRoutes } from '@renderer/test/render'

const member = (patch: Partial<User> = {}): User => ({
  ...memberUser,
  remark: '',
  createdAt: '2025-01-02T10:00:00+08:00',
  adminSince: null,
  seedingCount: 12,
  seedingSize: 1024 ** 3,
  assignedCount: 5,
  ...patch,
})

let api: FakeApi
const inputs = (endpoint: string) => api.call.mock.calls.filter(([name]) => name === endpoint).map(([, input]) => input)
const spaced = (text: string) => new RegExp(`^${[...text].join('\\s*')}$`)

beforeEach(() => {
  window.localStorage.clear()
  api = installFakeApi({
    handlers: {
      'user.loginInfo': ok(adminUser),
      'user.pageNormal': ok({ list: [member()], total: 1 }),
      // Nothing synced for the new uid: the typed number is offered as 「使用 UID …」.
      'site.users': (input) =>
        ok(
          (input as { keyword: string }).keyword === '10086'
            ? [{ uid: 10086, username: 'alice_site', memberId: 2, memberRole: 'normal' }]
            : [],
        ),
      'user.update': (input) => ok(member(input as Partial<User>)),
      'user.create': ok(member({ id: 9, username: 'carol' })),
    },
  })
})

async function openPage() {
  renderRoutes(routes, '/normal-user')
  await screen.findByText('共 1 条', undefined, { timeout: 8000 })
}

describe('保种员 · 站点 UID typed but not picked', { timeout: 30_000 }, () => {
  it('编辑保种员: a new uid typed in the box and then 保存 saves that uid', async () => {
    await openPage()
    fireEvent.click(within(screen.getByText('alice', { selector: 'a' }).closest('tr')!).getByRole('button', { name: spaced('编辑') }))
    const dialog = await screen.findByRole('dialog')
    expect(await within(dialog).findByTitle('alice_site (UID 10086)')).toBeTruthy()
    const uidBox = within(dialog).getByLabelText('站点 UID') as HTMLInputElement
    // The admin types the member's new uid, sees it offered, and goes straight to 保存 (mouse: the box loses focus).
    act(() => uidBox.focus())
    fireEvent.change(uidBox, { target: { value: '20002' } })
    await waitFor(() => expect(document.querySelector('.ant-select-item-option[title="使用 UID 20002"]')).toBeTruthy())
    // Straight to 保存 with the mouse: the focus leaves the box for the button, then the click.
    const save = within(dialog).getByRole('button', { name: spaced('保存') })
    act(() => save.focus())
    fireEvent.click(save)
    // The typed uid is saved — never the old one (and 已保存 shown) as if nothing had been typed.
    await waitFor(() => expect(inputs('user.update')).toEqual([{ id: 2, siteUid: 20002, remark: '' }]))
  })

  it('新建保种员: a uid typed in the box and then 创建 creates the member with it', async () => {
    await openPage()
    fireEvent.click(screen.getByRole('button', { name: /新建保种员/ }))
    const dialog = await screen.findByRole('dialog')
    fireEvent.change(within(dialog).getByLabelText('用户名'), { target: { value: 'carol' } })
    fireEvent.change(within(dialog).getByLabelText('初始密码'), { target: { value: 'Secret-pass-1' } })
    const uidBox = within(dialog).getByLabelText('站点 UID') as HTMLInputElement
    act(() => uidBox.focus())
    fireEvent.change(uidBox, { target: { value: '30003' } })
    await waitFor(() => expect(document.querySelector('.ant-select-item-option[title="使用 UID 30003"]')).toBeTruthy())
    const create = within(dialog).getByRole('button', { name: spaced('创建') })
    act(() => create.focus())
    fireEvent.click(create)
    await waitFor(() =>
      expect(inputs('user.create')).toEqual([{ username: 'carol', password: 'Secret-pass-1', siteUid: 30003, remark: '' }]),
    )
  })

  it('新建保种员 by keyboard: a uid picked with Enter, the next Enter creates the member (as 编辑保种员 does)', async () => {
    await openPage()
    fireEvent.click(screen.getByRole('button', { name: /新建保种员/ }))
    const dialog = await screen.findByRole('dialog')
    fireEvent.change(within(dialog).getByLabelText('用户名'), { target: { value: 'carol' } })
    fireEvent.change(within(dialog).getByLabelText('初始密码'), { target: { value: 'Secret-pass-1' } })
    const box = within(dialog).getByLabelText('站点 UID')
    const enter = () => {
      fireEvent.keyDown(box, { key: 'Enter', code: 'Enter', keyCode: 13 })
      fireEvent.keyUp(box, { key: 'Enter', code: 'Enter', keyCode: 13 })
    }
    fireEvent.change(box, { target: { value: '30003' } })
    await waitFor(() => expect(document.querySelector('.ant-select-item-option[title="使用 UID 30003"]')).toBeTruthy())
    await waitFor(() => expect(box.getAttribute('aria-expanded')).toBe('true'))
    enter() // picks 「使用 UID 30003」
    await waitFor(() => expect(box.getAttribute('aria-expanded')).toBe('false'))
    expect(within(dialog).getByText('UID 30003')).toBeTruthy()
    expect(inputs('user.create')).toEqual([])
    enter() // submits the form (product.md §5: Enter submits forms), rather than opening the list again
    await waitFor(() =>
      expect(inputs('user.create')).toEqual([{ username: 'carol', password: 'Secret-pass-1', siteUid: 30003, remark: '' }]),
    )
  })
})
