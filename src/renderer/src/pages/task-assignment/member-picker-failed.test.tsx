/**
 * Found by an outside tester (fixed since; the test keeps it so).
 * 任务分配 · 分配给…: when the keeper list (task/members) cannot be read (server error, network down), the picker
 * says 「没有可分配的保种员（需状态正常并绑定站点 UID）」— telling the admin that no member of the team is eligible,
 * so they go and check accounts and site UIDs that are fine. The read failed: the picker must say so (as 添加管理员's
 * picker does since its own fix, admin-user/picker-failed.test.tsx), not claim there is nobody to assign.
 * Cause was: index.tsx loaded it with `keeperOptions().catch(() => [])`, so a failure looked like an empty team.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { routes } from '@renderer/router'
import { adminUser, fail, installFakeApi, ok, type FakeApi } from '@renderer/test/fakeApi'
import { renderRoutes } from '@renderer/test/render'
import { torrent } from './fixtures'

let api: FakeApi
const inputs = (endpoint: string) => api.call.mock.calls.filter(([name]) => name === endpoint).map(([, input]) => input)

beforeEach(() => {
  window.localStorage.clear()
  api = installFakeApi({
    handlers: {
      'user.loginInfo': ok(adminUser),
      'torrent.page': ok({ list: [torrent({})], total: 1 }),
      'task.assignees': ok([]),
      // The keeper list cannot be read when the dialog opens.
      'task.members': fail(500, '服务器内部错误'),
    },
  })
})

describe('任务分配 · 分配给… picker that failed to load', { timeout: 30_000 }, () => {
  it('does not say no member can be assigned when the list could not be read', async () => {
    renderRoutes(routes, '/task-assignment')
    await screen.findByText('共 1 条', undefined, { timeout: 8000 })
    fireEvent.click(within(screen.getByText('Planet.Earth.II.2016.2160p').closest('tr')!).getByRole('checkbox'))
    await waitFor(() => expect((screen.getByRole('button', { name: /分配给/ }) as HTMLButtonElement).disabled).toBe(false))
    fireEvent.click(screen.getByRole('button', { name: /分配给/ }))
    const dialog = await screen.findByRole('dialog')
    await waitFor(() => expect(inputs('task.members')).toHaveLength(1))
    fireEvent.mouseDown(dialog.querySelector('.ant-select')!)
    await waitFor(() => expect(document.querySelector('.ant-select-dropdown, .ant-select-popup')).toBeTruthy())
    // Let the failed read settle into the picker.
    await new Promise((resolve) => setTimeout(resolve, 200))
    // The admin must not be told that no member is eligible: the list was never read.
    expect(screen.queryByText(/没有可分配的保种员/)).toBeNull()
    // It should say the list failed to load (as 添加管理员's picker: 「…加载失败，请关闭后重新打开再试」), so the admin retries.
    const empty = document.querySelector('.ant-select-item-empty')
    expect(empty?.textContent ?? '').toMatch(/失败|重试/)
  })
})
