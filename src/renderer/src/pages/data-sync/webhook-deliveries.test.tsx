import { beforeEach, describe, expect, it } from 'vitest'
import { act, screen, waitFor, within } from '@testing-library/react'
import type { SyncStatus } from '@shared/entities'
import type { WebhookDeliveries } from '@shared/payout'
import { routes } from '@renderer/router'
import { adminUser, installFakeApi, ok, type FakeApi } from '@renderer/test/fakeApi'
import { renderRoutes } from '@renderer/test/render'
import { formatDateTime } from '@renderer/utils/format'
import { lastAnswer } from './WebhookDeliveries'

const status = (source: SyncStatus['source']): SyncStatus => ({
  source,
  running: false,
  progress: null,
  lastStartedAt: '2026-02-10T04:00:00.000Z',
  lastFinishedAt: '2026-02-10T04:00:05.000Z',
  lastError: null,
  rows: {},
})

const deliveries: WebhookDeliveries = {
  webhookConfigured: true,
  list: [
    {
      wageId: 12,
      username: 'alice',
      period: '2026-01',
      idempotencyKey: 'seeding-console:wage:12',
      attempts: 2,
      lastStatus: 503,
      lastError: null,
      lastAttemptAt: '2026-02-10T04:01:00.000Z',
      nextRetryAt: '2026-02-10T04:01:20.000Z',
      state: 'pending',
    },
    {
      wageId: 13,
      username: 'bob',
      period: '2026-01',
      idempotencyKey: 'seeding-console:wage:13',
      attempts: 1,
      lastStatus: 200,
      lastError: null,
      lastAttemptAt: '2026-02-10T04:00:30.000Z',
      nextRetryAt: null,
      state: 'done',
    },
    {
      wageId: 14,
      username: 'carol',
      period: '2026-01',
      idempotencyKey: 'seeding-console:wage:14',
      attempts: 3,
      lastStatus: null,
      lastError: 'fetch failed（connect ECONNREFUSED 127.0.0.1:9）',
      lastAttemptAt: '2026-02-10T04:00:40.000Z',
      nextRetryAt: '2026-02-10T04:02:00.000Z',
      state: 'pending',
    },
  ],
}

let api: FakeApi
const install = (source: SyncStatus['source'], log: WebhookDeliveries) => {
  api = installFakeApi({
    handlers: { 'user.loginInfo': ok(adminUser), 'sync.status': ok(status(source)), 'wages.payoutDeliveries': ok(log) },
  })
}
const calls = (endpoint: string) => api.call.mock.calls.filter(([name]) => name === endpoint)

async function openPage() {
  renderRoutes(routes, '/data-sync')
  await screen.findByTestId('sync-summary', undefined, { timeout: 8000 })
}

describe('数据同步 · 工资推送记录', { timeout: 30_000 }, () => {
  beforeEach(() => window.localStorage.clear())

  it('names the last answer: the HTTP status, 无法连接, or not sent yet', () => {
    expect(lastAnswer({ lastStatus: 503, lastError: null, attempts: 1 })).toBe('HTTP 503')
    expect(lastAnswer({ lastStatus: null, lastError: 'ECONNREFUSED', attempts: 1 })).toBe('无法连接')
    expect(lastAnswer({ lastStatus: null, lastError: null, attempts: 0 })).toBe('尚未发送')
  })

  it('an ingest site lists each delivery with its record, key, attempts, last answer, next retry and state', async () => {
    install('ingest', deliveries)
    await openPage()
    const card = await screen.findByTestId('webhook-deliveries')
    const rows = await waitFor(() => {
      const found = within(card).getAllByRole('row').slice(1)
      expect(found).toHaveLength(3)
      return found
    })
    const cells = (row: HTMLElement) => [...row.querySelectorAll('td')].map((td) => td.textContent)
    expect(cells(rows[0]!)).toEqual([
      '#12 alice（2026-01）',
      'seeding-console:wage:12',
      '2',
      'HTTP 503',
      formatDateTime('2026-02-10T04:01:00.000Z'),
      formatDateTime('2026-02-10T04:01:20.000Z'),
      '待送达',
    ])
    expect(cells(rows[1]!)).toEqual([
      '#13 bob（2026-01）',
      'seeding-console:wage:13',
      '1',
      'HTTP 200',
      formatDateTime('2026-02-10T04:00:30.000Z'),
      '-',
      '已送达',
    ])
    expect(cells(rows[2]!)[3]).toBe('无法连接')
    expect(within(card).queryByText(/未设置 PAYOUT_WEBHOOK_URL/)).toBeNull()
  })

  it('an ingest site without the webhook says it is not set', async () => {
    install('ingest', { webhookConfigured: false, list: [] })
    await openPage()
    const card = await screen.findByTestId('webhook-deliveries')
    expect(await within(card).findByText(/未设置 PAYOUT_WEBHOOK_URL 和 PAYOUT_WEBHOOK_SECRET/)).toBeTruthy()
    expect(within(card).getByText('还没有推送过工资')).toBeTruthy()
  })

  it('a NexusPHP source shows the log only when the webhook is the payout target', async () => {
    install('nexusphp', { webhookConfigured: false, list: [] })
    await openPage()
    await waitFor(() => expect(calls('wages.payoutDeliveries').length).toBeGreaterThan(0))
    // Answered (and rendered) and still hidden.
    const index = api.call.mock.calls.findIndex(([name]) => name === 'wages.payoutDeliveries')
    await act(async () => {
      await api.call.mock.results[index]!.value
    })
    expect(screen.queryByTestId('webhook-deliveries')).toBeNull()
  })

  it('a NexusPHP source with the webhook configured shows it', async () => {
    install('nexusphp', deliveries)
    await openPage()
    expect(await screen.findByTestId('webhook-deliveries')).toBeTruthy()
  })
})
