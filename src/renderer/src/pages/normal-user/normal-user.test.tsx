import { beforeEach, describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import type { User } from '@shared/entities'
import { routes } from '@renderer/router'
import { adminUser, fail, installFakeApi, memberUser, ok, type FakeApi } from '@renderer/test/fakeApi'
import { renderRoutes } from '@renderer/test/render'
import { SEEDING_COUNT_HELP } from '@renderer/components/seedingCountHelp'
import { useSettingsStore } from '@renderer/stores/settings'

const GiB = 1024 ** 3

export const member = (patch: Partial<User> = {}): User => ({
  ...memberUser,
  remark: '',
  createdAt: '2025-01-02T10:00:00+08:00',
  adminSince: null,
  seedingCount: 12,
  seedingSize: 30 * GiB,
  assignedCount: 5,
  ...patch,
})

let api: FakeApi
const inputs = (endpoint: string) => api.call.mock.calls.filter(([name]) => name === endpoint).map(([, input]) => input)

beforeEach(() => {
  window.localStorage.clear()
  api = installFakeApi({
    handlers: {
      'user.loginInfo': ok(adminUser),
      'user.pageNormal': ok({ list: [member(), member({ id: 3, username: 'bob', status: 0, siteUid: 20001 })], total: 2 }),
    },
  })
})

async function openPage() {
  renderRoutes(routes, '/normal-user')
  await screen.findByText('共 2 条', undefined, { timeout: 8000 })
}

/** antd puts a space between two Chinese characters of some buttons. */
export const spaced = (text: string) => new RegExp(`^${[...text].join('\\s*')}$`)

const rowOf = (name: string) => screen.getByText(name, { selector: 'a' }).closest('tr')!

/** An option of the open select list, by its title (the label text). */
async function findOption(title: string): Promise<HTMLElement> {
  let found: HTMLElement | null = null
  await waitFor(() => {
    found = document.querySelector<HTMLElement>(`.ant-select-item-option[title="${title}"]`)
    expect(found, `option ${title}`).toBeTruthy()
  })
  return found!
}

describe('保种员', { timeout: 30_000 }, () => {
  it('writes the counts with thousands separators, as the dashboard does', async () => {
    api.handle('user.pageNormal', ok({ list: [member({ seedingCount: 1373, assignedCount: 1024 })], total: 1 }))
    renderRoutes(routes, '/normal-user')
    await screen.findByText('共 1 条', undefined, { timeout: 8000 })
    const cells = within(rowOf('alice'))
      .getAllByRole('cell')
      .map((cell) => cell.textContent)
    expect(cells).toContain('1,373')
    expect(cells).toContain('1,024')
  })

  it('lists members with their status tags and sends the filters', async () => {
    await openPage()
    await waitFor(() => expect(document.title).toBe('保种员 - 保种管理台'))
    expect(inputs('user.pageNormal')[0]).toEqual({ page: 1, pageSize: 20 })
    expect(within(rowOf('alice')).getByText('正常').className).toContain('ant-tag-green')
    expect(within(rowOf('bob')).getByText('封禁').className).toContain('ant-tag-red')
    expect(within(rowOf('alice')).getByText('30.00 GiB')).toBeTruthy()

    const search = within(screen.getByTestId('data-table-search'))
    fireEvent.change(search.getByPlaceholderText('用户名包含的文字'), { target: { value: 'ali' } })
    fireEvent.change(search.getByPlaceholderText('完整的站点 UID'), { target: { value: '10086' } })
    fireEvent.click(search.getByRole('button', { name: '查询' }))
    await waitFor(() => expect(inputs('user.pageNormal').at(-1)).toEqual({ page: 1, pageSize: 20, username: 'ali', siteUid: 10086 }))
  })

  it('checks the 站点 UID search before sending: a Chinese message and nothing sent; full-width digits count', async () => {
    await openPage()
    const search = within(screen.getByTestId('data-table-search'))
    const uidBox = search.getByPlaceholderText('完整的站点 UID')
    const asked = inputs('user.pageNormal').length
    for (const typed of ['abc', '99999999999999999999']) {
      fireEvent.change(uidBox, { target: { value: typed } })
      fireEvent.click(search.getByRole('button', { name: '查询' }))
      expect(await search.findByText('站点 UID应为 1 到 2147483647 之间的整数')).toBeTruthy()
    }
    expect(inputs('user.pageNormal')).toHaveLength(asked)

    fireEvent.change(uidBox, { target: { value: '１２３' } })
    fireEvent.submit(uidBox.closest('form')!) // Enter
    await waitFor(() => expect(inputs('user.pageNormal').at(-1)).toEqual({ page: 1, pageSize: 20, siteUid: 123 }))
    expect((search.getByPlaceholderText('用户名包含的文字') as HTMLInputElement).maxLength).toBe(64)
  })

  it('takes a uid typed in full-width digits in the 站点 UID picker', async () => {
    api.handle('site.users', (input) =>
      ok((input as { keyword: string }).keyword === '12345' ? [{ uid: 12345, username: 'erin', memberId: null, memberRole: null }] : []),
    )
    await openPage()
    fireEvent.click(screen.getByRole('button', { name: /新建保种员/ }))
    const dialog = await screen.findByRole('dialog')
    fireEvent.change(within(dialog).getByLabelText('站点 UID'), { target: { value: '１２３４５' } })
    fireEvent.click(await findOption('erin (UID 12345)'))
    expect(inputs('site.users')).toEqual([{ keyword: '12345' }])
    expect(within(dialog).getByText('erin (UID 12345)')).toBeTruthy()

    // Nothing synced for it: the typed number is still offered as a uid.
    fireEvent.change(within(dialog).getByLabelText('站点 UID'), { target: { value: '３０００３' } })
    expect(await findOption('使用 UID 30003')).toBeTruthy()
  })

  it('creates a member; a refused save keeps the values and shows the server message', async () => {
    api.handle('user.create', fail(409, '用户名已存在'))
    await openPage()
    fireEvent.click(screen.getByRole('button', { name: /新建保种员/ }))
    const dialog = await screen.findByRole('dialog')
    fireEvent.change(within(dialog).getByLabelText('用户名'), { target: { value: 'carol' } })
    fireEvent.change(within(dialog).getByLabelText('初始密码'), { target: { value: 'Secret-pass-1' } })
    // No synced site users here (site.users answers nothing): the typed number is offered as a uid.
    fireEvent.change(within(dialog).getByLabelText('站点 UID'), { target: { value: '30003' } })
    fireEvent.click(await findOption('使用 UID 30003'))
    fireEvent.click(within(dialog).getByRole('button', { name: spaced('创建') }))

    expect(await within(dialog).findByText('用户名已存在')).toBeTruthy()
    expect(inputs('user.create')).toEqual([{ username: 'carol', password: 'Secret-pass-1', siteUid: 30003, remark: '' }])
    expect((within(dialog).getByLabelText('用户名') as HTMLInputElement).value).toBe('carol')
    expect((within(dialog).getByLabelText('初始密码') as HTMLInputElement).value).toBe('Secret-pass-1')
    expect(within(dialog).getByText('UID 30003')).toBeTruthy()

    api.handle('user.create', ok(member({ id: 9, username: 'carol' })))
    fireEvent.submit(within(dialog).getByLabelText('用户名').closest('form')!) // Enter submits the form
    await waitFor(() => expect(inputs('user.create')).toHaveLength(2))
    await waitFor(() => expect(inputs('user.pageNormal').length).toBeGreaterThan(1))
  })

  it('asks before banning and deleting, then sets the status', async () => {
    api.handle('user.setStatus', (input) => ok(member({ status: (input as { status: 0 | 1 | 2 }).status })))
    await openPage()
    fireEvent.click(within(rowOf('alice')).getByRole('button', { name: spaced('封禁') }))
    expect(inputs('user.setStatus')).toEqual([])
    const confirm = await screen.findByText('封禁 alice？')
    const popover = confirm.closest('.ant-popover')! as HTMLElement
    fireEvent.click(within(popover).getByRole('button', { name: spaced('封禁') }))
    await waitFor(() => expect(inputs('user.setStatus')).toEqual([{ id: 2, status: 0 }]))

    fireEvent.click(within(rowOf('bob')).getByRole('button', { name: spaced('解封') }))
    fireEvent.click(
      within((await screen.findByText('解封 bob？')).closest('.ant-popover')! as HTMLElement).getByRole('button', { name: spaced('解封') }),
    )
    await waitFor(() => expect(inputs('user.setStatus').at(-1)).toEqual({ id: 3, status: 2 }))

    fireEvent.click(within(rowOf('bob')).getByRole('button', { name: spaced('删除') }))
    fireEvent.click(
      within((await screen.findByText('删除 bob？')).closest('.ant-popover')! as HTMLElement).getByRole('button', { name: spaced('删除') }),
    )
    await waitFor(() => expect(inputs('user.setStatus').at(-1)).toEqual({ id: 3, status: 1 }))
  })

  it('restores a deleted member after confirmation, and offers no password reset for them', async () => {
    api.handle('user.pageNormal', ok({ list: [member(), member({ id: 4, username: 'dave', status: 1, siteUid: 20002 })], total: 2 }))
    api.handle('user.setStatus', (input) => ok(member({ id: 4, username: 'dave', status: (input as { status: 0 | 1 | 2 }).status })))
    await openPage()
    const row = rowOf('dave')
    expect(within(row).getByText('已删除')).toBeTruthy()
    expect(within(row).queryByRole('button', { name: spaced('重置密码') })).toBeNull()
    expect(within(row).queryByRole('button', { name: spaced('删除') })).toBeNull()
    expect(within(rowOf('alice')).queryByRole('button', { name: spaced('恢复') })).toBeNull()
    fireEvent.click(within(row).getByRole('button', { name: spaced('恢复') }))
    expect(inputs('user.setStatus')).toEqual([])
    const popover = (await screen.findByText('恢复 dave？')).closest('.ant-popover')! as HTMLElement
    fireEvent.click(within(popover).getByRole('button', { name: spaced('恢复') }))
    await waitFor(() => expect(inputs('user.setStatus')).toEqual([{ id: 4, status: 2 }]))
  })

  it('edits the site uid and remark, and resets a password', async () => {
    api.handle('user.update', ok(member()))
    api.handle('user.resetPassword', ok(null))
    api.handle('site.users', ok([{ uid: 10086, username: 'alice_site', memberId: 2, memberRole: 'normal' }]))
    await openPage()
    fireEvent.click(within(rowOf('alice')).getByRole('button', { name: spaced('编辑') }))
    let dialog = await screen.findByRole('dialog')
    // The current uid shows with its site user's name (looked up by uid); by title, as the focused
    // select also says the name to screen readers.
    expect(await within(dialog).findByTitle('alice_site (UID 10086)')).toBeTruthy()
    expect(inputs('site.users')).toEqual([{ keyword: '10086' }])
    fireEvent.change(within(dialog).getByLabelText('备注'), { target: { value: '老成员' } })
    fireEvent.click(within(dialog).getByRole('button', { name: spaced('保存') }))
    await waitFor(() => expect(inputs('user.update')).toEqual([{ id: 2, siteUid: 10086, remark: '老成员' }]))
    await waitFor(() => expect(inputs('user.pageNormal').length).toBeGreaterThan(1)) // saved, list reloaded

    fireEvent.click(within(rowOf('bob')).getByRole('button', { name: '重置密码' }))
    dialog = (await screen.findByText('重置密码 · bob')).closest('[role="dialog"]') as HTMLElement
    fireEvent.change(within(dialog).getByLabelText('新密码'), { target: { value: 'New-pass-123' } })
    fireEvent.click(within(dialog).getByRole('button', { name: spaced('重置') }))
    await waitFor(() => expect(inputs('user.resetPassword')).toEqual([{ id: 3, password: 'New-pass-123' }]))
  })

  it('picks the site uid from the synced site users by name; one tied to another account cannot be picked and names its role', async () => {
    api.handle('site.users', (input) =>
      ok(
        (input as { keyword: string }).keyword === 'dor'
          ? [
              { uid: 501, username: 'dora', memberId: null, memberRole: null },
              { uid: 502, username: 'doris', memberId: 7, memberRole: 'normal' },
              { uid: 503, username: 'dorothy', memberId: 1, memberRole: 'admin' },
              { uid: 504, username: 'dorian', memberId: 8, memberRole: 'normal', memberStatus: 1 },
            ]
          : [],
      ),
    )
    api.handle('user.create', ok(member({ id: 9, username: 'dora' })))
    await openPage()
    fireEvent.click(screen.getByRole('button', { name: /新建保种员/ }))
    const dialog = await screen.findByRole('dialog')
    fireEvent.change(within(dialog).getByLabelText('用户名'), { target: { value: 'dora' } })
    fireEvent.change(within(dialog).getByLabelText('初始密码'), { target: { value: 'Secret-pass-1' } })
    const uid = within(dialog).getByLabelText('站点 UID')
    // Typed quickly: one search, for the last text, after the pause.
    for (const text of ['d', 'do', 'dor']) fireEvent.change(uid, { target: { value: text } })
    const dora = await findOption('dora (UID 501)')
    expect(inputs('site.users')).toEqual([{ keyword: 'dor' }])
    const doris = await findOption('doris (UID 502) 已是保种员')
    expect(doris.className).toContain('ant-select-item-option-disabled')
    expect(within(doris).getByText('已是保种员')).toBeTruthy()
    // An admin's uid names the admin's role, not 保种员.
    const dorothy = await findOption('dorothy (UID 503) 已是管理员')
    expect(dorothy.className).toContain('ant-select-item-option-disabled')
    expect(within(dorothy).queryByText('已是保种员')).toBeNull()
    // A uid held by a deleted account says so: the admin restores that account rather than looks for it.
    const dorian = await findOption('dorian (UID 504) 已是保种员（已删除）')
    expect(dorian.className).toContain('ant-select-item-option-disabled')
    expect(document.querySelector('.ant-select-item-option[title^="使用 UID"]')).toBeNull() // not a number

    fireEvent.click(dora)
    expect(within(dialog).getByText('dora (UID 501)')).toBeTruthy()
    fireEvent.click(within(dialog).getByRole('button', { name: spaced('创建') }))
    await waitFor(() => expect(inputs('user.create')).toEqual([{ username: 'dora', password: 'Secret-pass-1', siteUid: 501, remark: '' }]))
  })

  it('finds a site user by uid without offering the same uid twice; a number too large is not a uid', async () => {
    api.handle('site.users', (input) =>
      ok((input as { keyword: string }).keyword === '501' ? [{ uid: 501, username: 'dora', memberId: null, memberRole: null }] : []),
    )
    await openPage()
    fireEvent.click(screen.getByRole('button', { name: /新建保种员/ }))
    const dialog = await screen.findByRole('dialog')
    const uid = within(dialog).getByLabelText('站点 UID')
    fireEvent.change(uid, { target: { value: '501' } })
    await findOption('dora (UID 501)')
    expect(document.querySelector('.ant-select-item-option[title="使用 UID 501"]')).toBeNull()

    fireEvent.change(uid, { target: { value: '99999999999' } })
    expect(await screen.findByText('UID 应为 1 到 2147483647 之间的整数')).toBeTruthy()
  })

  it('keeps a member’s own site user pickable when editing them', async () => {
    api.handle('site.users', ok([{ uid: 10086, username: 'alice_site', memberId: 2, memberRole: 'normal' }]))
    await openPage()
    fireEvent.click(within(rowOf('alice')).getByRole('button', { name: spaced('编辑') }))
    const dialog = await screen.findByRole('dialog')
    fireEvent.change(within(dialog).getByLabelText('站点 UID'), { target: { value: 'alice' } })
    const own = await findOption('alice_site (UID 10086)')
    expect(own.className).not.toContain('ant-select-item-option-disabled')
  })

  it('opens the member detail with their counts, chart and records', async () => {
    api.handle('user.detail', ok({ ...member(), byStatus: { 1: 0, 2: 1, 3: 7, 4: 2, 5: 0, 6: 0, 7: 3, 8: 0 } }))
    api.handle(
      'statistics.user',
      ok({ userId: 2, byStatus: {}, seedingCount: 7, seedingSize: 0, uploaded: 0, estimatedWage: 0, rank: null, daily: [] }),
    )
    api.handle('user.pageSeed', ok({ list: [], total: 0 }))
    await openPage()
    fireEvent.click(screen.getByText('alice', { selector: 'a' }))
    expect(await screen.findByText('保种员详情 · alice')).toBeTruthy()
    expect(within(await screen.findByTestId('member-by-status')).getByText('做种中 7')).toBeTruthy()
    await waitFor(() => expect(inputs('user.pageSeed')).toEqual([{ page: 1, pageSize: 20, userId: 2 }]))
    expect(inputs('user.detail')).toEqual([{ id: 2 }])
    expect(inputs('statistics.user')).toEqual([{ userId: 2, days: 30 }])
  })

  it('says what 做种数 counts, and that the status tags cover every record (they do not add up to it)', async () => {
    // 9 seeding now: 做种中 7 + 做种中（未认领） 1 + 无工资 1 (an uploader's record may seed too); 14 records in all.
    api.handle('user.detail', ok({ ...member({ seedingCount: 9 }), byStatus: { 1: 0, 2: 1, 3: 7, 4: 1, 5: 1, 6: 1, 7: 3, 8: 0 } }))
    api.handle(
      'statistics.user',
      ok({ userId: 2, byStatus: {}, seedingCount: 9, seedingSize: 0, uploaded: 0, estimatedWage: 0, rank: null, daily: [] }),
    )
    api.handle('user.pageSeed', ok({ list: [], total: 0 }))
    await openPage()
    expect(screen.getByRole('columnheader', { name: /做种数/ }).getAttribute('title')).toBe(SEEDING_COUNT_HELP)
    fireEvent.click(screen.getByText('alice', { selector: 'a' }))
    const byStatus = await screen.findByTestId('member-by-status')
    expect(within(byStatus).getByText('共 14 条记录')).toBeTruthy()
    const drawer = byStatus.closest('.ant-drawer') as HTMLElement
    expect(within(drawer).getByLabelText(SEEDING_COUNT_HELP)).toBeTruthy()
    expect(SEEDING_COUNT_HELP).toMatch(/做种中.*做种中（未认领）.*无工资.*发布者/)
  })

  it('says so in the member detail when the account cannot be read, instead of loading forever', async () => {
    api.handle('user.detail', fail(404, '用户不存在'))
    api.handle(
      'statistics.user',
      ok({ userId: 2, byStatus: {}, seedingCount: 0, seedingSize: 0, uploaded: 0, estimatedWage: 0, rank: null, daily: [] }),
    )
    api.handle('user.pageSeed', ok({ list: [], total: 0 }))
    await openPage()
    fireEvent.click(screen.getByText('alice', { selector: 'a' }))
    expect(await screen.findByText('账号信息加载失败', undefined, { timeout: 8000 })).toBeTruthy()
    expect(screen.getByText('保种员详情')).toBeTruthy()
  })

  it('shows a member the 403 page', async () => {
    api.handle('user.loginInfo', ok(memberUser))
    renderRoutes(routes, '/normal-user')
    expect(await screen.findByText('抱歉，你无权访问该页面。')).toBeTruthy()
    expect(inputs('user.pageNormal')).toEqual([])
  })
})

describe('保种员 dialogs: drafts through a re-login, messages, limits', { timeout: 30_000 }, () => {
  /** The save meets an ended login: the app goes to the login page; the admin logs in again and comes back. */
  async function saveIntoEndedLoginAndComeBack(router: { state: { location: { pathname: string } } }, button: string) {
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: spaced(button) }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
    api.handle('user.login', ok('token'))
    fireEvent.change(await screen.findByLabelText('用户名'), { target: { value: 'admin' } })
    fireEvent.change(screen.getByLabelText('密码'), { target: { value: 'secret' } })
    fireEvent.click(screen.getByRole('button', { name: '登录' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/normal-user'))
  }

  it('编辑保种员: what was typed comes back in the dialog after a save refused because the login ended', async () => {
    await useSettingsStore.getState().load()
    api.handle('user.update', fail(401, '登录已过期，请重新登录'))
    const { router } = renderRoutes(routes, '/normal-user')
    await screen.findByText('共 2 条', undefined, { timeout: 8000 })
    fireEvent.click(within(rowOf('alice')).getByRole('button', { name: spaced('编辑') }))
    const dialog = await screen.findByRole('dialog')
    fireEvent.change(within(dialog).getByLabelText('备注'), { target: { value: '周末换硬盘' } })
    await saveIntoEndedLoginAndComeBack(router, '保存')

    // The dialog opens again by itself, for the same member, with the draft and a word that it was restored.
    const again = await screen.findByRole('dialog', undefined, { timeout: 8000 })
    expect(within(again).getByText('编辑保种员 · alice')).toBeTruthy()
    expect((within(again).getByLabelText('备注') as HTMLTextAreaElement).value).toBe('周末换硬盘')
    expect(within(again).getByTestId('member-draft').textContent).toContain('已恢复上次未保存的修改')

    api.handle('user.update', ok(member({ remark: '周末换硬盘' })))
    fireEvent.click(within(again).getByRole('button', { name: spaced('保存') }))
    await waitFor(() => expect(inputs('user.update').at(-1)).toEqual({ id: 2, siteUid: 10086, remark: '周末换硬盘' }))
    // Saved: the draft is gone, and the next opening shows the member as they are.
    await waitFor(() => expect(window.sessionStorage.length).toBe(0))
  })

  it('新建保种员: the username and remark come back after the login ended, the initial password does not', async () => {
    await useSettingsStore.getState().load()
    api.handle('user.create', fail(401, '登录已过期，请重新登录'))
    const { router } = renderRoutes(routes, '/normal-user')
    await screen.findByText('共 2 条', undefined, { timeout: 8000 })
    fireEvent.click(screen.getByRole('button', { name: /新建保种员/ }))
    const dialog = await screen.findByRole('dialog')
    fireEvent.change(within(dialog).getByLabelText('用户名'), { target: { value: 'newbie' } })
    fireEvent.change(within(dialog).getByLabelText('初始密码'), { target: { value: 'Draft-newbie-pass-1' } })
    fireEvent.change(within(dialog).getByLabelText('备注'), { target: { value: '外测草稿' } })
    // The password is never written down.
    expect(JSON.stringify({ ...window.sessionStorage })).not.toContain('Draft-newbie-pass-1')
    await saveIntoEndedLoginAndComeBack(router, '创建')

    const again = await screen.findByRole('dialog', undefined, { timeout: 8000 })
    expect((within(again).getByLabelText('用户名') as HTMLInputElement).value).toBe('newbie')
    expect((within(again).getByLabelText('备注') as HTMLTextAreaElement).value).toBe('外测草稿')
    expect((within(again).getByLabelText('初始密码') as HTMLInputElement).value).toBe('')
    expect(within(again).getByTestId('member-draft').textContent).toContain('初始密码不会保留')
    expect(JSON.stringify({ ...window.sessionStorage })).not.toContain('Draft-newbie-pass-1')

    // 取消 drops the draft.
    fireEvent.click(within(again).getByRole('button', { name: spaced('取消') }))
    await waitFor(() => expect(window.sessionStorage.length).toBe(0))
  })

  it('a server message about the username goes once the username is changed (not when another field is)', async () => {
    api.handle('user.create', fail(400, '用户名：只能包含文字、数字、下划线、点和短横线'))
    await openPage()
    fireEvent.click(screen.getByRole('button', { name: /新建保种员/ }))
    const dialog = await screen.findByRole('dialog')
    fireEvent.change(within(dialog).getByLabelText('用户名'), { target: { value: 'test user' } })
    fireEvent.change(within(dialog).getByLabelText('初始密码'), { target: { value: 'Secret-pass-1' } })
    fireEvent.click(within(dialog).getByRole('button', { name: spaced('创建') }))
    expect((await within(dialog).findByTestId('form-error')).textContent).toContain('用户名：只能包含')

    fireEvent.change(within(dialog).getByLabelText('备注'), { target: { value: '与用户名无关' } })
    expect(within(dialog).getByTestId('form-error')).toBeTruthy()
    fireEvent.change(within(dialog).getByLabelText('用户名'), { target: { value: 'valid_user_1' } })
    await waitFor(() => expect(within(dialog).queryByTestId('form-error')).toBeNull())
  })

  it('重置密码 refuses a password of spaces only, in Chinese, without asking the server', async () => {
    await openPage()
    fireEvent.click(within(rowOf('bob')).getByRole('button', { name: '重置密码' }))
    const dialog = (await screen.findByText('重置密码 · bob')).closest('[role="dialog"]') as HTMLElement
    fireEvent.change(within(dialog).getByLabelText('新密码'), { target: { value: ' '.repeat(8) } })
    fireEvent.click(within(dialog).getByRole('button', { name: spaced('重置') }))
    expect(await within(dialog).findByText('密码不能只包含空格')).toBeTruthy()
    expect(inputs('user.resetPassword')).toEqual([])
  })

  it('备注 shows how much of its 500 characters is used, so a pasted text cut at the limit is not cut silently', async () => {
    await openPage()
    fireEvent.click(within(rowOf('alice')).getByRole('button', { name: spaced('编辑') }))
    const dialog = await screen.findByRole('dialog')
    expect(dialog.querySelector('.ant-input-data-count')?.textContent).toBe('0 / 500')
    // (The browser cuts a longer paste at the limit: the count then reads 500 / 500.)
    fireEvent.change(within(dialog).getByLabelText('备注'), { target: { value: '长'.repeat(12) } })
    await waitFor(() => expect(dialog.querySelector('.ant-input-data-count')?.textContent).toBe('12 / 500'))
  })
})
