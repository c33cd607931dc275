/** Runs before every renderer test file (see vitest.config.ts). */
import { afterEach, beforeEach, vi } from 'vitest'
import { cleanup, configure } from '@testing-library/react'
import { forgetRememberedState } from '@renderer/hooks/useRememberedState'
import { useSettingsStore } from '@renderer/stores/settings'
import { useUserStore } from '@renderer/stores/user'
import { bindMessageApi } from '@renderer/utils/feedback'
import { bindNavigation } from '@renderer/utils/navigation'
import { installFakeApi } from './fakeApi'

// The first render of a route transforms antd and the page on demand; on a busy 2-core machine that
// alone can take seconds. Generous waits keep the suite about behaviour, not about machine load.
configure({ asyncUtilTimeout: 5000 })
vi.setConfig({ testTimeout: 20_000 })

// happy-dom has no matchMedia; antd's responsive helpers (Grid, Sider breakpoints) need it.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    configurable: true,
    value: (query: string): MediaQueryList =>
      ({
        matches: false,
        media: query,
        onchange: null,
        addListener: () => undefined,
        removeListener: () => undefined,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
        dispatchEvent: () => false,
      }) as MediaQueryList,
  })
}

// happy-dom does no layout, so every element is 0×0. Chart boxes (components/Chart) get the size a
// browser would give them, so echarts measures them as it does in the app (and does not warn).
const CHART_TEST_WIDTH = 600
for (const [property, chartSize] of [
  ['clientWidth', () => CHART_TEST_WIDTH],
  ['clientHeight', (element: HTMLElement) => Number.parseFloat(element.style.height) || 0],
] as const) {
  const original =
    Object.getOwnPropertyDescriptor(Element.prototype, property) ?? Object.getOwnPropertyDescriptor(HTMLElement.prototype, property)
  Object.defineProperty(HTMLElement.prototype, property, {
    configurable: true,
    get(this: HTMLElement) {
      if (this.dataset.testid === 'chart') return chartSize(this)
      return original?.get ? (original.get.call(this) as number) : 0
    },
  })
}

beforeEach(() => {
  installFakeApi()
})

afterEach(() => {
  cleanup()
  useSettingsStore.setState(useSettingsStore.getInitialState(), true)
  useUserStore.setState(useUserStore.getInitialState(), true)
  bindMessageApi(null)
  bindNavigation(null)
  forgetRememberedState()
  window.sessionStorage.clear()
  document.title = ''
})
