/**
 * Found by an outside tester (fixed since; the test keeps it so): 设置 reopened after a refused server address showed
 * the saved address again, but still with the old red refusal under it (「请输入 http:// 或 https:// 开头的地址」 under a
 * perfectly good http:// address). Each opening now starts from what is saved, fields reset first.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { useState } from 'react'
import { fail, installFakeApi, type FakeApi } from '@renderer/test/fakeApi'
import { renderWithProviders } from '@renderer/test/render'
import { useSettingsStore } from '@renderer/stores/settings'
import SettingsDialog from '.'

const REFUSAL = '请输入 http:// 或 https:// 开头的地址'
let api: FakeApi

function Host() {
  const [open, change] = useState(true)
  return (
    <>
      {/* 设置 in the user menu */}
      <button onClick={() => change(true)}>打开设置</button>
      <SettingsDialog open={open} onClose={() => change(false)} onServerChanged={() => undefined} />
    </>
  )
}

beforeEach(async () => {
  api = installFakeApi({ settings: { serverAddress: 'http://127.0.0.1:8080/api/v1', navTheme: 'realDark', updateUrl: '' } })
  await useSettingsStore.getState().load()
})

describe('设置 dialog reopened after a refusal', { timeout: 20_000 }, () => {
  it('starts from the saved address without the earlier refusal', async () => {
    api.setSettings.mockResolvedValueOnce(fail(400, REFUSAL))
    renderWithProviders(<Host />)
    const dialog = screen.getByRole('dialog')
    fireEvent.change(within(dialog).getByLabelText('服务器地址'), { target: { value: 'ftp://example.org' } })
    fireEvent.click(within(dialog).getByRole('button', { name: '保存' }))
    expect(await within(dialog).findByText(REFUSAL)).toBeTruthy()

    // 取消, then 设置 again from the user menu.
    fireEvent.click(within(dialog).getByRole('button', { name: '取消' }))
    fireEvent.click(screen.getByRole('button', { name: '打开设置' }))
    const again = screen.getByRole('dialog')
    await waitFor(() => expect((within(again).getByLabelText('服务器地址') as HTMLInputElement).value).toBe('http://127.0.0.1:8080/api/v1'))
    // The saved address is a good one: no refusal under it.
    expect(within(again).queryByText(REFUSAL)).toBeNull()
  })
})
