/**
 * 工资推送记录 on 数据同步: the wage records last POSTed to PAYOUT_WEBHOOK_URL (how ingest sites receive paid wages) with
 * their idempotency key, attempts, the receiver's last answer, the next retry and the state. Shown
 * for ingest sites and wherever the webhook is the payout target; refreshed every 15 seconds.
 */
import { Alert, Card, Table, Tag, Tooltip, Typography, type TableColumnsType } from 'antd'
import type { SyncStatus } from '@shared/entities'
import type { WebhookDelivery } from '@shared/payout'
import { dateTimeColumn } from '@renderer/components/dateTimeColumn'
import { useApi } from '@renderer/hooks/useApi'

export const DELIVERIES_POLL_MS = 15_000

const states: Record<WebhookDelivery['state'], { color: string; text: string }> = {
  pending: { color: 'processing', text: '待送达' },
  done: { color: 'success', text: '已送达' },
  failed: { color: 'error', text: '失败' },
  in_doubt: { color: 'warning', text: '待核对' },
}

/** `HTTP 503`, or why the receiver was not reached. */
export function lastAnswer(delivery: Pick<WebhookDelivery, 'lastStatus' | 'lastError' | 'attempts'>): string {
  if (delivery.lastStatus !== null) return `HTTP ${delivery.lastStatus}`
  if (delivery.lastError) return '无法连接'
  return delivery.attempts ? '-' : '尚未发送'
}

const columns: TableColumnsType<WebhookDelivery> = [
  { title: '工资记录', dataIndex: 'wageId', width: 180, render: (_, d) => `#${d.wageId} ${d.username}（${d.period}）` },
  {
    title: '幂等键（Idempotency-Key）',
    dataIndex: 'idempotencyKey',
    ellipsis: true,
    render: (key: string) => <Typography.Text copyable={{ text: key }}>{key}</Typography.Text>,
  },
  { title: '尝试次数', dataIndex: 'attempts', width: 90, align: 'right' },
  {
    title: '最近应答',
    dataIndex: 'lastStatus',
    width: 120,
    render: (_, d) => {
      const text = lastAnswer(d)
      const ok = d.lastStatus !== null && d.lastStatus >= 200 && d.lastStatus < 300
      const shown = <Typography.Text type={ok || text === '-' || text === '尚未发送' ? undefined : 'danger'}>{text}</Typography.Text>
      return d.lastError ? <Tooltip title={d.lastError}>{shown}</Tooltip> : shown
    },
  },
  dateTimeColumn<WebhookDelivery>('最近发送', 'lastAttemptAt'),
  dateTimeColumn<WebhookDelivery>('下次重试', 'nextRetryAt'),
  {
    title: '状态',
    dataIndex: 'state',
    width: 90,
    render: (state: WebhookDelivery['state']) => <Tag color={states[state].color}>{states[state].text}</Tag>,
  },
]

export default function WebhookDeliveries({ source }: { source: SyncStatus['source'] }) {
  const { data, error } = useApi('wages.payoutDeliveries', undefined, { silent: true, refreshInterval: DELIVERIES_POLL_MS })
  if (source !== 'ingest' && !data?.webhookConfigured) return null
  return (
    <Card title="工资推送记录（Webhook）" size="small" data-testid="webhook-deliveries">
      {error && <Alert type="error" showIcon title={`推送记录加载失败：${error.message}`} style={{ marginBottom: 12 }} />}
      {data && !data.webhookConfigured && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          title="未设置 PAYOUT_WEBHOOK_URL 和 PAYOUT_WEBHOOK_SECRET：发放到站点的工资不会推送给站点（见 README「发放到站点」）。"
        />
      )}
      <Table<WebhookDelivery>
        rowKey="idempotencyKey"
        size="small"
        columns={columns}
        dataSource={data?.list ?? []}
        loading={!data && !error}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        scroll={{ x: 900 }}
        locale={{ emptyText: '还没有推送过工资' }}
      />
    </Card>
  )
}
