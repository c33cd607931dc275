import { beforeEach, describe, expect, it, vi } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { fail, installFakeApi, type FakeApi } from '@renderer/test/fakeApi'
import { renderWithProviders } from '@renderer/test/render'
import { useSettingsStore } from '@renderer/stores/settings'
import SettingsDialog from '.'

let api: FakeApi
beforeEach(async () => {
  api = installFakeApi({ settings: { serverAddress: 'http://127.0.0.1:8080/api/v1', navTheme: 'realDark', updateUrl: '' } })
  await useSettingsStore.getState().load()
})

function renderDialog() {
  const onClose = vi.fn()
  const onServerChanged = vi.fn()
  renderWithProviders(<SettingsDialog open onClose={onClose} onServerChanged={onServerChanged} />)
  const dialog = screen.getByRole('dialog')
  return { dialog, onClose, onServerChanged, address: within(dialog).getByLabelText('服务器地址') as HTMLInputElement }
}

describe('设置 dialog', { timeout: 20_000 }, () => {
  it('starts from the saved settings', () => {
    const { address, dialog } = renderDialog()
    expect(address.value).toBe('http://127.0.0.1:8080/api/v1')
    expect((within(dialog).getByLabelText('暗色') as HTMLInputElement).checked).toBe(true)
  })

  it("shows main's refusal on the field and keeps what was typed", async () => {
    api.setSettings.mockResolvedValueOnce(fail(400, '请输入 http:// 或 https:// 开头的地址'))
    const { address, dialog, onClose, onServerChanged } = renderDialog()
    fireEvent.change(address, { target: { value: 'ftp://example.org' } })
    fireEvent.click(within(dialog).getByLabelText('亮色'))
    fireEvent.click(within(dialog).getByRole('button', { name: '保存' }))
    expect(await within(dialog).findByText('请输入 http:// 或 https:// 开头的地址')).toBeTruthy()
    expect(api.setSettings).toHaveBeenCalledWith({ serverAddress: 'ftp://example.org' })
    expect(address.value).toBe('ftp://example.org')
    expect((within(dialog).getByLabelText('亮色') as HTMLInputElement).checked).toBe(true)
    expect(onClose).not.toHaveBeenCalled()
    expect(onServerChanged).not.toHaveBeenCalled()
    expect(useSettingsStore.getState().serverAddress).toBe('http://127.0.0.1:8080/api/v1')
  })

  it('saves the theme alone without ending the session', async () => {
    const { dialog, onClose, onServerChanged } = renderDialog()
    fireEvent.click(within(dialog).getByLabelText('亮色'))
    fireEvent.click(within(dialog).getByRole('button', { name: '保存' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(api.setSettings).toHaveBeenCalledWith({ navTheme: 'light' })
    expect(useSettingsStore.getState().navTheme).toBe('light')
    expect(onServerChanged).not.toHaveBeenCalled()
  })

  it('reports a new server address (the session ends) with a notice', async () => {
    const { address, dialog, onClose, onServerChanged } = renderDialog()
    fireEvent.change(address, { target: { value: 'https://seed.example.org' } })
    fireEvent.click(within(dialog).getByRole('button', { name: '保存' }))
    await waitFor(() => expect(onServerChanged).toHaveBeenCalled())
    expect(onClose).toHaveBeenCalled()
    expect(api.setSettings).toHaveBeenCalledWith({ serverAddress: 'https://seed.example.org' })
    expect(await screen.findByText('服务器地址已更改，请重新登录')).toBeTruthy()
  })

  it('saves the update address, and shows a refused one on its field with everything kept', async () => {
    const { dialog, onClose, onServerChanged } = renderDialog()
    const feed = within(dialog).getByLabelText('更新服务器地址') as HTMLInputElement
    expect(feed.value).toBe('')
    api.setSettings.mockResolvedValueOnce(fail(400, '请输入 https:// 开头的更新地址（http:// 只能用于本机测试），或留空'))
    fireEvent.change(feed, { target: { value: 'ftp://dl.example/' } })
    fireEvent.click(within(dialog).getByLabelText('亮色'))
    fireEvent.click(within(dialog).getByRole('button', { name: '保存' }))
    expect(await within(dialog).findByText('请输入 https:// 开头的更新地址（http:// 只能用于本机测试），或留空')).toBeTruthy()
    expect(feed.value).toBe('ftp://dl.example/')
    expect((within(dialog).getByLabelText('亮色') as HTMLInputElement).checked).toBe(true)
    expect(api.setSettings).toHaveBeenCalledTimes(1)
    expect(onClose).not.toHaveBeenCalled()

    fireEvent.change(feed, { target: { value: ' https://dl.example/console/ ' } })
    fireEvent.click(within(dialog).getByRole('button', { name: '保存' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(api.setSettings).toHaveBeenCalledWith({ updateUrl: 'https://dl.example/console/' })
    expect(useSettingsStore.getState().updateUrl).toBe('https://dl.example/console/')
    expect(onServerChanged).not.toHaveBeenCalled()
    expect(await screen.findByText('设置已保存')).toBeTruthy()
  })

  it('opens with the focus in the server address', async () => {
    const { address } = renderDialog()
    await waitFor(() => expect(document.activeElement).toBe(address))
  })

  it('saves once for a fast double Enter, and not again while the save runs', async () => {
    let answer!: (result: Awaited<ReturnType<FakeApi['setSettings']>>) => void
    api.setSettings.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)))
    const { address, dialog, onServerChanged } = renderDialog()
    fireEvent.change(address, { target: { value: 'https://seed.example.org' } })
    fireEvent.keyDown(address, { key: 'Enter', code: 'Enter', keyCode: 13 })
    fireEvent.keyDown(address, { key: 'Enter', code: 'Enter', keyCode: 13 })
    await waitFor(() => expect(within(dialog).getByRole('button', { name: /保存/ }).className).toMatch(/ant-btn-loading/))
    fireEvent.keyDown(address, { key: 'Enter', code: 'Enter', keyCode: 13 })
    // Let this Enter's check of the fields finish while the first save still runs.
    await waitFor(() => expect(dialog.querySelector('.ant-form-item-is-validating')).toBeNull())
    answer({ ok: true, data: { ...api.settings, serverAddress: 'https://seed.example.org' } })
    await waitFor(() => expect(onServerChanged).toHaveBeenCalled())
    expect(api.setSettings).toHaveBeenCalledTimes(1)
  })
})
