/**
 * A test double of the preload bridge (`window.api`) for unit tests. Each endpoint answers from a
 * handler the test installs; anything else answers like an unknown call would.
 */
import { vi, type Mock } from 'vitest'
import type { LoginInfo } from '@shared/entities'
import type { EndpointName } from '@shared/endpoints'
import type { ApiResult, RendererApi, Settings, SettingsPatch } from '@shared/ipc'

export type FakeHandler = (input: unknown) => ApiResult<unknown> | Promise<ApiResult<unknown>>

export interface FakeApi {
  call: Mock<(endpoint: string, input?: unknown) => Promise<ApiResult<unknown>>>
  getSettings: Mock<() => Promise<Settings>>
  setSettings: Mock<(patch: SettingsPatch) => Promise<ApiResult<Settings>>>
  /** What main currently holds. */
  settings: Settings
  /** Installs (or replaces) the answer of one endpoint. */
  handle(endpoint: EndpointName | string, handler: FakeHandler | ApiResult<unknown>): void
}

export const ok = <T>(data: T): ApiResult<T> => ({ ok: true, data })
export const fail = (code: number, msg: string): ApiResult<never> => ({ ok: false, code, msg })

export const memberUser: LoginInfo = {
  id: 2,
  username: 'alice',
  role: 'normal',
  status: 2,
  siteUid: 10086,
  lastLoginAt: '2025-03-01T08:30:00+08:00',
}

export const adminUser: LoginInfo = { ...memberUser, id: 1, username: 'admin', role: 'admin', siteUid: null, lastLoginAt: null }

export const defaultSettings: Settings = { serverAddress: 'http://127.0.0.1:8080/api/v1', navTheme: 'realDark', updateUrl: '' }

export function installFakeApi(
  options: { settings?: Partial<Settings>; handlers?: Record<string, FakeHandler | ApiResult<unknown>> } = {},
): FakeApi {
  const handlers = new Map<string, FakeHandler>()
  const fake: FakeApi = {
    settings: { ...defaultSettings, ...options.settings },
    call: vi.fn(async (endpoint: string, input?: unknown) => {
      const handler = handlers.get(endpoint)
      return handler ? handler(input) : fail(404, `测试未配置接口 ${endpoint}`)
    }),
    getSettings: vi.fn(async () => ({ ...fake.settings })),
    setSettings: vi.fn(async (patch: SettingsPatch) => {
      fake.settings = { ...fake.settings, ...patch }
      return ok({ ...fake.settings })
    }),
    handle(endpoint, handler) {
      handlers.set(endpoint, typeof handler === 'function' ? handler : () => handler)
    },
  }
  for (const [endpoint, handler] of Object.entries(options.handlers ?? {})) fake.handle(endpoint, handler)
  window.api = fake as unknown as RendererApi
  return fake
}
