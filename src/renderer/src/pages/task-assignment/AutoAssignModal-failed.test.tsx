/**
 * Found by an outside tester (fixed since; the test keeps it so): 自动分配's preview that failed also said 「没有需要分配的官种」
 * under the error, as if every official torrent already had its keepers.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { fireEvent, screen, within } from '@testing-library/react'
import { routes } from '@renderer/router'
import { adminUser, fail, installFakeApi, ok } from '@renderer/test/fakeApi'
import { renderRoutes } from '@renderer/test/render'
import { torrent } from './fixtures'

beforeEach(() => {
  window.localStorage.clear()
  installFakeApi({
    handlers: {
      'user.loginInfo': ok(adminUser),
      'torrent.page': ok({ list: [torrent({})], total: 1 }),
      'task.assignees': ok([]),
      // The server cannot work out a plan (down, or an error of its own).
      'task.autoAssign': fail(0, '无法连接服务器，请检查服务器地址和网络'),
    },
  })
})

describe('自动分配 · a preview that failed', { timeout: 30_000 }, () => {
  it('a preview that failed does not also say there is nothing to assign', async () => {
    renderRoutes(routes, '/task-assignment')
    await screen.findByText('共 1 条', undefined, { timeout: 8000 })
    fireEvent.click(screen.getByRole('button', { name: /自动分配/ }))
    const dialog = await screen.findByRole('dialog')
    expect(await within(dialog).findByText('无法连接服务器，请检查服务器地址和网络')).toBeTruthy()
    // The plan was never computed: the dialog must not tell the admin every official torrent is already covered.
    expect(within(dialog).getByTestId('auto-assign-summary').textContent).not.toMatch(/没有需要分配的官种/)
  })
})
