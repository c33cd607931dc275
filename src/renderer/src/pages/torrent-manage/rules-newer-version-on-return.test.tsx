/**
 * Found by an outside tester (fixed since; the test keeps it so): 官种设置 showed the rule values of the version it
 * read on an earlier visit, under the tag of the newer version it had just read. product.md §3 (/torrent-manage): the
 * 官种规则 tab shows the current rule version; an admin who comes back to it expects the fields to be that version's
 * values — not last visit's values labelled with the new version number (a save from there was also made on the old
 * version). The form now takes a newer version's values when it holds no unsaved edit (RulesForm's version effect), and
 * 采用站点的设置 puts the saved rules in the page's cache (useSetReads): returned to within SWR's 2 s dedupe window, the
 * page asked nothing and showed its old cache (a CI run caught that timing).
 *
 * The scenario stays inside the console: 数据同步's 「采用站点的设置」 saves a new rule version, and the admin goes
 * back to 官种设置 to look at it.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import type { Rules, SyncStatus } from '@shared/entities'
import { routes } from '@renderer/router'
import { adminUser, installFakeApi, ok } from '@renderer/test/fakeApi'
import { renderRoutes } from '@renderer/test/render'
import { sampleRules } from '@renderer/test/rules'

const v7: Rules = { ...sampleRules, mode: 'nexusphpClaims', version: 7, t0Weeks: 4 }
const status: SyncStatus = {
  source: 'nexusphp',
  running: false,
  progress: null,
  lastStartedAt: '2025-03-14T09:00:00.000Z',
  lastFinishedAt: '2025-03-14T09:00:42.000Z',
  lastError: null,
  rows: {},
  site: {
    timeZone: 'Asia/Shanghai',
    peerLifetimeMinutes: 78,
    activeWindowMinutes: 80,
    wageDifferences: [{ setting: 'bonus.tzero', label: '种子年龄参数 T0（周）', site: '5', rules: '4', field: 't0Weeks', siteValue: 5 }],
  },
} as SyncStatus

let current: Rules

beforeEach(() => {
  window.localStorage.clear()
  current = v7
  installFakeApi({
    handlers: {
      'user.loginInfo': ok(adminUser),
      'config.rules': () => ok(current),
      'config.saveRules': (input) => {
        const { baseVersion: _base, ...body } = input as Rules & { baseVersion: number }
        current = { ...body, version: current.version + 1 }
        return ok(current)
      },
      'sync.status': ok(status),
      'torrent.page': ok({ list: [], total: 0 }),
    },
  })
})

describe('官种设置 after a new rule version was saved elsewhere', { timeout: 120_000 }, () => {
  it('shows the new version with its own values, not the values of the version read before', async () => {
    const { router } = renderRoutes(routes, '/torrent-manage')
    await screen.findByText('v7', undefined, { timeout: 20_000 })
    expect((screen.getByLabelText('种子年龄参数 T0（周）') as HTMLInputElement).value).toBe('4')

    // 数据同步: 采用站点的设置 saves v8 with T0 = 5.
    await act(() => router.navigate('/data-sync'))
    fireEvent.click(await screen.findByTestId('adopt-site-wage-settings', undefined, { timeout: 20_000 }))
    const dialog = await screen.findByRole('dialog', undefined, { timeout: 20_000 })
    fireEvent.click(within(dialog).getByRole('button', { name: /保\s*存/ }))
    await waitFor(() => expect(current.version).toBe(8), { timeout: 20_000 })

    // Back to 官种设置: the page says v8 …
    await act(() => router.navigate('/torrent-manage'))
    await screen.findByText('v8', undefined, { timeout: 20_000 })
    // … and shows v8's T0 (5), not v7's 4.
    await waitFor(() => expect((screen.getByLabelText('种子年龄参数 T0（周）') as HTMLInputElement).value).toBe('5'), { timeout: 20_000 })
  })
})
