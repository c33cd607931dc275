import { beforeEach, describe, expect, it } from 'vitest'
import { fireEvent, screen, within } from '@testing-library/react'
import { routes } from '@renderer/router'
import { fail, installFakeApi, memberUser, ok, type FakeApi } from '@renderer/test/fakeApi'
import { renderRoutes } from '@renderer/test/render'

let api: FakeApi
const inputs = () => api.call.mock.calls.filter(([name]) => name === 'user.changePassword').map(([, input]) => input)

beforeEach(() => {
  api = installFakeApi({ handlers: { 'user.loginInfo': ok(memberUser) } })
})

async function openDialog() {
  renderRoutes(routes, '/')
  fireEvent.click(await screen.findByTestId('user-menu'))
  fireEvent.click(await screen.findByText('修改密码'))
  const dialog = (await screen.findByText('修改密码', { selector: '.ant-modal-title' })).closest('[role="dialog"]') as HTMLElement
  const field = (label: string) => within(dialog).getByLabelText(label) as HTMLInputElement
  return { dialog, field }
}

describe('修改密码 from the user menu', { timeout: 30_000 }, () => {
  it('refuses a mismatched confirmation without calling the server', async () => {
    const { dialog, field } = await openDialog()
    fireEvent.change(field('原密码'), { target: { value: 'Old-pass-1' } })
    fireEvent.change(field('新密码'), { target: { value: 'New-pass-12' } })
    fireEvent.change(field('确认新密码'), { target: { value: 'New-pass-13' } })
    fireEvent.click(within(dialog).getByRole('button', { name: /修\s*改/ }))
    expect(await within(dialog).findByText('两次输入的新密码不一致')).toBeTruthy()
    expect(inputs()).toEqual([])
  })

  it("shows the server's refusal of the old password and keeps what was typed, then changes it", async () => {
    api.handle('user.changePassword', fail(400, '原密码不正确'))
    const { dialog, field } = await openDialog()
    fireEvent.change(field('原密码'), { target: { value: 'Wrong-pass-1' } })
    fireEvent.change(field('新密码'), { target: { value: 'New-pass-12' } })
    fireEvent.change(field('确认新密码'), { target: { value: 'New-pass-12' } })
    fireEvent.click(within(dialog).getByRole('button', { name: /修\s*改/ }))
    expect(await within(dialog).findByText('原密码不正确')).toBeTruthy()
    expect(field('原密码').value).toBe('Wrong-pass-1')
    expect(field('新密码').value).toBe('New-pass-12')

    api.handle('user.changePassword', ok(null))
    fireEvent.change(field('原密码'), { target: { value: 'Old-pass-1' } })
    fireEvent.click(within(dialog).getByRole('button', { name: /修\s*改/ }))
    expect(await screen.findByText('密码已修改，其他设备上的登录已退出')).toBeTruthy()
    expect(inputs().at(-1)).toEqual({ oldPassword: 'Old-pass-1', newPassword: 'New-pass-12' })
  })
})
