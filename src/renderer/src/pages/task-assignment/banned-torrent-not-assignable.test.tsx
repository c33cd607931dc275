/**
 * Found by an outside tester (fixed since; the test keeps it so): a torrent the site has banned could be ticked in
 * 任务分配 and sent to 分配给…, only for the server to refuse the whole assignment (409) after members were picked.
 * domain.md §3: "Banned torrents carry a visible 已禁止 mark and cannot be assigned"; the mark's own tooltip says
 * 「无法做种，不能分配」. 分配给… is now off, with the reason on hover, while the selection holds one (its checkbox
 * stays: a banned torrent's old assignments can still be removed with 取消分配).
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { routes } from '@renderer/router'
import { adminUser, installFakeApi, ok } from '@renderer/test/fakeApi'
import { renderRoutes } from '@renderer/test/render'
import { torrent } from './fixtures'

beforeEach(() => {
  window.localStorage.clear()
  installFakeApi({
    handlers: {
      'user.loginInfo': ok(adminUser),
      'torrent.page': ok({
        list: [torrent({}), torrent({ id: 13, name: 'Banned.Story.2020.1080p', banned: true })],
        total: 2,
      }),
      'task.assignees': ok([]),
      'task.members': ok([{ id: 2, username: 'alice', role: 'normal', assignedCount: 0, seedingCount: 0 }]),
    },
  })
})

describe('任务分配 and a banned torrent', { timeout: 30_000 }, () => {
  it('does not offer 分配给… while a torrent marked 已禁止 is selected', async () => {
    renderRoutes(routes, '/task-assignment')
    await screen.findByText('共 2 条', undefined, { timeout: 8000 })
    const row = screen.getByText('Banned.Story.2020.1080p').closest('tr')!
    expect(within(row).getByTestId('banned-mark')).toBeTruthy()
    // Tick it (a disabled checkbox takes no click).
    fireEvent.click(within(row).getByRole('checkbox'))
    await waitFor(() => expect(screen.queryByRole('button', { name: /分配给/ })).toBeTruthy())
    const assign = screen.getByRole('button', { name: /分配给/ }) as HTMLButtonElement
    // Nothing assignable is selected: 分配给… stays off, and says why.
    expect(assign.disabled).toBe(true)
    fireEvent.mouseEnter(screen.getAllByTestId('disabled-reason')[0]!)
    expect(await screen.findByText(/1 个已被站点禁止/, undefined, { timeout: 5000 })).toBeTruthy()
    // Only the torrent that can be kept: 分配给… is on.
    fireEvent.click(within(row).getByRole('checkbox'))
    fireEvent.click(within(screen.getByText(torrent({}).name).closest('tr')!).getByRole('checkbox'))
    await waitFor(() => expect((screen.getByRole('button', { name: /分配给/ }) as HTMLButtonElement).disabled).toBe(false), {
      timeout: 5000,
    })
  })
})
