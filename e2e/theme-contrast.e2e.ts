/**
 * Small text stays readable in both themes (WCAG AA, 4.5:1 for text this small): the status, claim and label tags
 * of 我的任务 — the colours that make a table tell its story at a glance (12 px text) — and the 「查看我的任务」 link
 * of the member's block on 首页. Each ratio is the element's text against the background it is drawn on
 * (alpha-blended layers), as the browser renders them. The brand primary button (white on #0BA348, 3.3:1) is the
 * one known exception and is not measured here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Locator } from 'playwright-core'
import { browserAvailable, type OpenApp } from './harness/app'
import type { RunningServer } from './harness/api-server'
import { startSuite, stopSuite } from './harness/suite'
import { freshStart } from './harness/session'
import { openMenu, poll, waitForRows, waitForTableSettled } from './harness/ui'

const MEMBER_PASSWORD = 'E2e-member-pass-9'

/** WCAG contrast of each element's text against the background it is drawn on (alpha blended), by text. */
async function contrasts(elements: Locator): Promise<Record<string, number>> {
  return elements.evaluateAll((nodes) => {
    const parse = (c: string) => {
      const p = (c.match(/rgba?\(([^)]+)\)/)?.[1] ?? '0,0,0,0')
        .split(/[ ,/]+/)
        .filter(Boolean)
        .map(Number)
      return { r: p[0]!, g: p[1]!, b: p[2]!, a: p.length > 3 ? p[3]! : 1 }
    }
    type C = ReturnType<typeof parse>
    const blend = (top: C, bottom: C): C => ({
      r: top.r * top.a + bottom.r * (1 - top.a),
      g: top.g * top.a + bottom.g * (1 - top.a),
      b: top.b * top.a + bottom.b * (1 - top.a),
      a: 1,
    })
    const lum = ({ r, g, b }: C) => {
      const f = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b)
    }
    const out: Record<string, number> = {}
    for (const node of nodes) {
      const layers: C[] = []
      for (let e: Element | null = node; e; e = e.parentElement) {
        const c = parse(getComputedStyle(e).backgroundColor)
        if (c.a > 0) layers.push(c)
        if (c.a >= 1) break
      }
      let bg: C = { r: 255, g: 255, b: 255, a: 1 }
      for (const layer of layers.reverse()) bg = blend(layer, bg)
      const fg = blend(parse(getComputedStyle(node).color), bg)
      const [hi, lo] = [lum(fg), lum(bg)].sort((x, y) => y - x)
      const text = (node.textContent ?? '').trim()
      out[text] = Math.min(out[text] ?? Infinity, Math.round(((hi! + 0.05) / (lo! + 0.05)) * 100) / 100)
    }
    return out
  })
}

describe.skipIf(!browserAvailable())('theme contrast (member)', () => {
  let server: RunningServer
  let app: OpenApp
  let member: string

  beforeAll(async () => {
    ;({ server, app } = await startSuite({ memberPassword: MEMBER_PASSWORD }))
    member = server.sql<{ username: string }>("select username from users where role = 'normal' and status = 2 order by id limit 1")[0]!
      .username
  })

  afterAll(() => stopSuite(server, app))

  /** Switches to the theme named (the button offering the other one then shows). */
  async function useTheme(name: 'dark' | 'light') {
    const { page } = app
    const [to, shown] = name === 'dark' ? ['切换为暗色主题', '切换为亮色主题'] : ['切换为亮色主题', '切换为暗色主题']
    // The layout's theme button, either way round, once the page is there.
    await page.getByRole('button', { name: /^切换为[暗亮]色主题$/ }).waitFor()
    const toggle = page.getByRole('button', { name: to })
    if (await toggle.isVisible()) await toggle.click()
    await page.getByRole('button', { name: shown }).waitFor()
  }

  for (const name of ['light', 'dark'] as const)
    it(`${name} theme: the status and claim tags of 我的任务 reach 4.5:1`, async () => {
      const { page } = app
      await freshStart(app, server, member, MEMBER_PASSWORD)
      await useTheme(name)
      await openMenu(page, '我的任务', 'task')
      await waitForRows(page)
      await waitForTableSettled(page)
      // Enough rows to meet the common tags.
      const tags = page.locator('.ant-table-tbody tr.ant-table-row .ant-tag')
      await poll(() => tags.count()).toBeGreaterThan(10)
      await app.screenshot(`theme-${name}-status-tags`)
      const seen = await contrasts(tags)
      const poor = Object.entries(seen).filter(([, ratio]) => ratio < 4.5)
      expect(poor, `tags under 4.5:1 in the ${name} theme: ${JSON.stringify(poor)}`).toEqual([])
    })

  for (const name of ['dark', 'light'] as const)
    it(`${name} theme: the 查看我的任务 link of the member block on 首页 reaches 4.5:1`, async () => {
      const { page } = app
      await freshStart(app, server, member, MEMBER_PASSWORD)
      await useTheme(name)
      await openMenu(page, '首页', /#\/$/)
      const link = page.getByTestId('my-stats').getByText('查看我的任务', { exact: true })
      await link.waitFor()
      const ratio = Object.values(await contrasts(link))[0]!
      expect(ratio, `查看我的任务 on the ${name} card`).toBeGreaterThanOrEqual(4.5)
    })
})
