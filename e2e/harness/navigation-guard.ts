/**
 * In Chromium there is no Electron `will-navigate` / `setWindowOpenHandler`: the harness feeds the
 * page's main-frame navigations and pop-ups to the app's real guard (src/main/security.ts), and
 * carries out its verdict — a cancelled navigation, a closed pop-up — as Electron would.
 */
import type { Page } from 'playwright-core'
import { guardWebContents, type GuardedContents } from '@main/security'

type Listener = (event: { preventDefault(): void }, url: string) => void

export async function applyNavigationGuard(page: Page, appUrl: string, log: (message: string) => void): Promise<void> {
  const listeners: Record<string, Listener> = {}
  let openHandler: ((details: { url: string }) => { action: 'deny' }) | undefined
  const contents = {
    on: (event: string, listener: Listener) => void (listeners[event] = listener),
    setWindowOpenHandler: (handler: typeof openHandler) => void (openHandler = handler),
  } as unknown as GuardedContents
  guardWebContents(contents, appUrl, log)

  await page.route('**/*', async (route) => {
    const request = route.request()
    if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return route.continue()
    let prevented = false
    listeners['will-navigate']?.({ preventDefault: () => (prevented = true) }, request.url())
    // A 204 answer cancels a navigation and keeps the current document — what Electron does
    // when `will-navigate` is prevented (an aborted request would show Chromium's error page).
    return prevented ? route.fulfill({ status: 204 }) : route.continue()
  })
  page.context().on('page', (popup) => {
    if (openHandler?.({ url: popup.url() }).action === 'deny') void popup.close()
  })
}
