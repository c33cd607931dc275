/**
 * What every browser suite does to the app's pages, written once. Each helper waits for the state it
 * needs (a title, a row, a toast, a settled table) and never for a fixed time: the suites must pass
 * on a busy 2-core machine, where a lazy page can take seconds to set its title.
 */
import { expect } from 'vitest'
import type { Locator, Page } from 'playwright-core'

/** expect.poll with room for a busy machine (the server re-labels, previews plans, syncs). */
export function poll<T>(read: () => T | Promise<T>, timeout = 20_000): ReturnType<typeof expect.poll<T | Promise<T>>> {
  return expect.poll(read, { timeout, interval: 250 })
}

/** antd may put a space between two Chinese characters of a button. */
export const spaced = (text: string) => new RegExp(`^\\s*${[...text].join('\\s*')}\\s*$`)

/**
 * A button by the text the user reads. Not by its accessible name: antd leaves a finished loading
 * icon (aria-label "loading") in a button when its dialog closes during the icon's leave motion, so a
 * 设置 dialog reopened after a refused save has a 保存 button named "loading 保存" until the next save.
 */
export function buttonIn(scope: Page | Locator, text: string): Locator {
  // Visible ones only, as a role query would: a closed dialog kept rendered has the same buttons.
  return scope.locator('button', { hasText: spaced(text) }).filter({ visible: true })
}

/** Waits until the route has set `document.title` to `<title> - 保种管理台`. */
export async function waitForTitle(page: Page, title: string): Promise<void> {
  const expected = `${title} - 保种管理台`
  await poll(() => page.title()).toBe(expected)
}

/** Opens a page from the side menu and waits for its route and its title. */
export async function openMenu(page: Page, title: string, path: string | RegExp): Promise<void> {
  await page.getByRole('menuitem', { name: new RegExp(title) }).click()
  await page.waitForURL(typeof path === 'string' ? new RegExp(`#/${path}`) : path)
  await waitForTitle(page, title)
}

/** `共 1,234 条` → 1234 (the visible table's total). */
export async function tableTotal(page: Page): Promise<number> {
  const total = page.locator('.ant-pagination-total-text').first()
  if ((await total.count()) === 0) return 0 // an empty table has no pagination
  const text = (await total.textContent()) ?? ''
  return Number(text.replace(/[^\d]/g, ''))
}

/** Waits for the first row of the visible table. */
export async function waitForRows(page: Page): Promise<void> {
  await page.locator('.ant-table-tbody tr.ant-table-row').first().waitFor()
}

/** Waits until no table on the page shows its loading spinner (the last request has answered). */
export async function waitForTableSettled(page: Page): Promise<void> {
  await poll(() => page.locator('.ant-table-wrapper .ant-spin-spinning').count()).toBe(0)
}

/**
 * Waits until no finite animation or transition runs on the page (a drawer or modal sliding in):
 * a layout read during one sees the element part-way. Endless ones (a loading spinner) are not waited for.
 */
export async function waitForMotionEnd(page: Page): Promise<void> {
  await poll(() =>
    page.evaluate(
      () => document.getAnimations().filter((a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Infinity).length,
    ),
  ).toBe(0)
}

/**
 * Waits for a toast with this text. When it does not come, the error says what the page showed instead
 * (other toasts, alerts, a form's field errors): a CI log is often all there is to read.
 */
export async function toast(page: Page, text: string | RegExp): Promise<void> {
  // Toasts last 3 s: a MutationObserver keeps the ones that came and went while waiting, to say what happened instead.
  await page
    .evaluate(() => {
      const w = window as unknown as { toastsSeen?: string[]; toastWatcher?: MutationObserver }
      w.toastWatcher?.disconnect()
      const seen: string[] = (w.toastsSeen = [])
      w.toastWatcher = new MutationObserver(() => {
        for (const notice of Array.from(document.querySelectorAll('.ant-message-notice'))) {
          const text = notice.textContent ?? ''
          if (text && !seen.includes(text)) seen.push(text)
        }
      })
      w.toastWatcher.observe(document.body, { childList: true, subtree: true, characterData: true })
    })
    .catch(() => {})
  try {
    await page.locator('.ant-message').getByText(text).first().waitFor()
  } catch (error) {
    const shown = await page
      .locator('.ant-message-notice, [role="alert"], .ant-form-item-explain-error')
      .allTextContents()
      .catch(() => [])
    const seen = await page.evaluate(() => (window as unknown as { toastsSeen?: string[] }).toastsSeen ?? []).catch(() => [])
    throw new Error(
      `${(error as Error).message}\n页面上显示的提示：${JSON.stringify(shown)}\n等待期间出现过的提示：${JSON.stringify(seen)}\n${await recentCalls(page)}`,
      {
        cause: error,
      },
    )
  } finally {
    await page.evaluate(() => (window as unknown as { toastWatcher?: MutationObserver }).toastWatcher?.disconnect()).catch(() => {})
  }
}

/** The page's last API calls (the bridge shim records them), newest last: what it asked and what came back, or that it still waits. */
export async function recentCalls(page: Page, count = 12): Promise<string> {
  type Call = { endpoint: string; start: number; ms: number | null; code: string | number | null }
  const calls = await page
    .evaluate((n) => ((window as unknown as { __apiCalls?: Call[] }).__apiCalls ?? []).slice(-n), count)
    .catch(() => [] as Call[])
  const now = Date.now()
  const lines = calls.map(({ endpoint, start, ms, code }) =>
    ms === null
      ? `  ${endpoint}: 仍在等待（已 ${now - start} ms）`
      : `  ${endpoint}: ${code}（${ms} ms，${Math.round((now - start) / 1000)} s 前）`,
  )
  return `页面最近的接口调用：\n${lines.join('\n') || '  （无）'}`
}

/**
 * Confirms the open Popconfirm with its button, and waits until the click was taken: the popover closed, or its button
 * shows that the action runs (loading). The popover zooms in, and on a busy machine a click during that motion can land
 * where the button no longer is and be lost (a CI run waited 30 s for a toast of a call never made), so the click comes
 * once the motion is over, and is tried again only while neither state has come.
 */
export async function confirmPopover(page: Page, button: string): Promise<void> {
  const name = spaced(button)
  const popover = page.locator('.ant-popover:visible', { has: page.getByRole('button', { name }) })
  const ok = popover.getByRole('button', { name })
  await popover.waitFor()
  await waitForMotionEnd(page)
  const taken = async () =>
    (await popover.count()) === 0 ||
    (await ok.evaluate((b) => b.classList.contains('ant-btn-loading'), undefined, { timeout: 1_000 }).catch(() => true))
  await poll(async () => {
    if (await taken()) return true
    await ok.click({ timeout: 5_000 })
    // Taken is the usual case at once; a lost click shows no change: tried again after a while.
    return expect
      .poll(taken, { timeout: 5_000, interval: 100 })
      .toBe(true)
      .then(() => true)
      .catch(() => false)
  }, 30_000).toBe(true)
}

/**
 * Picks an option of an antd Select (found by its form label), typing to search first, and waits until the
 * field shows it. On a busy machine a click can land while the list renders again (its options arriving, a
 * search answering) and be lost: the pick is then tried again — never while the option shows as chosen, since
 * a second click on a chosen option of a multiple select takes it away.
 */
export async function pick(scope: Page | Locator, page: Page, label: string, option: string, type = true): Promise<void> {
  const box = scope.getByLabel(label, { exact: true })
  // What the field shows once picked (single: its content, multiple: a tag), titled with the option. `has` takes a
  // locator from the page: it is looked for inside each select.
  const select = scope.locator('.ant-select', { has: page.getByLabel(label, { exact: true }) })
  const chosen = select.locator(`[title="${option}"]`)
  await poll(async () => {
    if ((await chosen.count()) > 0) return true
    await box.click()
    if (type) await box.fill(option)
    await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${option}"]`).click()
    return chosen
      .first()
      .waitFor({ timeout: 3_000 })
      .then(() => true)
      .catch(() => false)
  }, 30_000).toBe(true)
}

/** Fills the table's search form by placeholder and presses 查询. */
export async function searchTable(page: Page, fields: Record<string, string>): Promise<void> {
  const form = page.getByTestId('data-table-search')
  for (const [placeholder, value] of Object.entries(fields)) await form.getByPlaceholder(placeholder).fill(value)
  await form.getByRole('button', { name: spaced('查询') }).click()
}

/**
 * The texts of those `elements` that break onto a second line (a label or a figure squeezed by its box): a
 * line of the element's contents that starts below the bottom of its first line.
 */
export async function wrappedTexts(elements: Locator): Promise<string[]> {
  return elements.evaluateAll((nodes) =>
    nodes
      .filter((node) => {
        const range = document.createRange()
        range.selectNodeContents(node)
        const boxes = Array.from(range.getClientRects()).filter((box) => box.width > 0 && box.height > 0)
        return boxes.some((box) => box.top >= boxes[0]!.bottom - 1)
      })
      .map((node) => node.textContent ?? ''),
  )
}

/**
 * Waits until a chart has finished drawing: its SVG is the same over two animation frames in a row
 * (echarts animates its entry), so a screenshot shows the chart, not a frame of its animation.
 */
export async function waitForChartStill(chart: Locator): Promise<void> {
  const svg = chart.locator('svg').first()
  await svg.waitFor()
  await poll(() =>
    svg.evaluate(
      (node) =>
        new Promise<boolean>((resolve) => {
          const before = node.innerHTML
          requestAnimationFrame(() => requestAnimationFrame(() => resolve(node.innerHTML === before)))
        }),
    ),
  ).toBe(true)
}
