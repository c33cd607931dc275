import { describe, expect, it } from 'vitest'
import { screen, within } from '@testing-library/react'
import { routes } from '@renderer/router'
import { installFakeApi, memberUser, ok } from '@renderer/test/fakeApi'
import { renderRoutes, renderWithProviders } from '@renderer/test/render'
import { ChangelogView } from '.'

const markdown = `# 更新日志

## [0.1.0] - 2026-01-01
### 新增
- 第一版

## [0.2.0] - 2026-02-01
### 新增
- 工资页面，支持 \`xlsx\` 导出
<script>alert(1)</script>
`

describe('更新日志', { timeout: 20_000 }, () => {
  it('renders releases newest first with their bullets, marking the current version, without injecting HTML', () => {
    renderWithProviders(<ChangelogView markdown={markdown} />)
    const cards = screen.getAllByTestId(/^release-/)
    expect(cards.map((card) => card.dataset.testid)).toEqual(['release-0.2.0', 'release-0.1.0'])
    expect(within(cards[0]!).getByText('当前版本')).toBeTruthy()
    expect(within(cards[1]!).queryByText('当前版本')).toBeNull()
    const bullet = within(cards[0]!).getByRole('listitem')
    expect(bullet.textContent).toBe('工资页面，支持 xlsx 导出')
    expect(bullet.querySelector('code')?.textContent).toBe('xlsx')
    expect(document.querySelector('script')).toBeNull()
    expect(screen.getByText(/<script>alert\(1\)<\/script>/)).toBeTruthy()
  })

  it('is in the menu for members, last', async () => {
    installFakeApi({ handlers: { 'user.loginInfo': ok(memberUser) } })
    renderRoutes(routes, '/changelog')
    await screen.findByText('当前版本', undefined, { timeout: 8000 })
    const items = screen.getAllByRole('menuitem').map((item) => item.textContent)
    expect(items.at(-1)).toBe('更新日志')
  })
})
