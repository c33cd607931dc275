import { describe, expect, it } from 'vitest'
import { render, screen, waitFor } from '@testing-library/react'
import { createMemoryRouter } from 'react-router-dom'
import type { Settings } from '@shared/ipc'
import App from './App'
import { routes } from './router'
import { createAppRouter } from './routing/createAppRouter'
import { installFakeApi, memberUser, ok } from './test/fakeApi'

/** The dashboard's greeting line (`晚上好，alice`): the mark that 首页 has rendered. */
const HOME_GREETING = /^(早上好|中午好|下午好|晚上好)，/

function renderApp(path: string) {
  const router = createAppRouter(routes, (routeObjects) => createMemoryRouter(routeObjects, { initialEntries: [path] }))
  return render(<App router={router} routes={routes} />)
}

describe('App', () => {
  it('shows the big spinner until the saved settings are known, then the page in that theme', async () => {
    const api = installFakeApi({ handlers: { 'user.loginInfo': ok(memberUser) } })
    let answer: (settings: Settings) => void = () => undefined
    api.getSettings.mockReturnValueOnce(new Promise<Settings>((resolve) => (answer = resolve)))
    renderApp('/')
    expect(screen.getByTestId('page-loading')).toBeTruthy()
    expect(api.call).not.toHaveBeenCalled()

    answer({ serverAddress: 'http://127.0.0.1:8080/api/v1', navTheme: 'light', updateUrl: '' })
    expect(await screen.findByRole('heading', { name: HOME_GREETING })).toBeTruthy()
    expect(screen.getByTestId('theme-switch').getAttribute('aria-label')).toBe('切换为暗色主题')
    await waitFor(() => expect(document.documentElement.style.colorScheme).toBe('light'))
  })

  it('is dark by default', async () => {
    installFakeApi({ handlers: { 'user.loginInfo': ok(memberUser) } })
    renderApp('/')
    await screen.findByRole('heading', { name: HOME_GREETING })
    expect(screen.getByTestId('theme-switch').getAttribute('aria-label')).toBe('切换为亮色主题')
    await waitFor(() => expect(document.documentElement.style.colorScheme).toBe('dark'))
  })

  it('writes exact button texts (no space inserted between two Chinese characters)', async () => {
    renderApp('/login')
    const button = await screen.findByRole('button', { name: '登录' })
    expect(button.textContent).toBe('登录')
  })
})
