/**
 * Found by an outside tester (fixed since; the test keeps it so).
 * 官种规则: a save refused for one field (`时区：不是有效的时区`) shows the message in the bar by 保存. Once the admin
 * corrected that very field, the bar still said the time zone is invalid — about a value no longer there — until the
 * next save. The dialogs of the app clear such a message as soon as the named field changes (FormModal's
 * `messageNamesField`); the long rules form, where the bar stays in view while the admin scrolls, should as well.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor } from '@testing-library/react'
import type { Rules } from '@shared/entities'
import { routes } from '@renderer/router'
import { adminUser, fail, installFakeApi, ok } from '@renderer/test/fakeApi'
import { renderRoutes } from '@renderer/test/render'
import { sampleRules } from '@renderer/test/rules'
import { torrent } from '../task-assignment/fixtures'

const rules: Rules = { ...sampleRules }

beforeEach(() => {
  window.localStorage.clear()
  window.sessionStorage.clear()
  installFakeApi({
    handlers: {
      'user.loginInfo': ok(adminUser),
      'config.rules': ok(rules),
      'torrent.page': ok({ list: [torrent({})], total: 1 }),
      'config.saveRules': fail(400, '时区：不是有效的时区'),
    },
  })
})

describe('官种规则 · a refused field corrected', { timeout: 30_000 }, () => {
  it('no longer says the time zone is invalid once the admin has corrected it', async () => {
    renderRoutes(routes, '/torrent-manage')
    await screen.findByText('v3', undefined, { timeout: 8000 })
    const timezone = screen.getByLabelText('时区') as HTMLInputElement
    fireEvent.change(timezone, { target: { value: 'Mars/Olympus' } })
    fireEvent.submit(screen.getByTestId('rules-form'))
    await waitFor(() => expect(screen.getByTestId('rules-error').textContent).toContain('时区：不是有效的时区'))

    // The admin fixes the field the server named.
    fireEvent.change(timezone, { target: { value: 'Asia/Shanghai' } })
    await new Promise((resolve) => setTimeout(resolve, 100))
    // Expected: the stale message about the old value is gone. Actual: it stays by 保存.
    expect(screen.queryByTestId('rules-error')?.textContent ?? '').not.toContain('时区：不是有效的时区')
  })
})
