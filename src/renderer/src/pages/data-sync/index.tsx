/**
 * 数据同步 (admins): where the site data comes from, whether the last sync went well, when it ran,
 * the rows it wrote per table and its error; `立即同步` starts one now. While a sync runs (started
 * here, by the schedule or by another server process) the status is asked every second and the
 * table being read shows with its progress; polling stops when the page closes (SWR).
 */
import { useEffect, useMemo, useRef, useState } from 'react'
import { SyncOutlined } from '@ant-design/icons'
import { Alert, Button, Card, Descriptions, Flex, Progress, Skeleton, Space, Table, Tag, Typography, type TableColumnsType } from 'antd'
import type { SyncProgress, SyncSite, SyncStatus } from '@shared/entities'
import { siteTableLabels, sourceKindLabels, syncStepLabels } from '@shared/enums'
import { useApi } from '@renderer/hooks/useApi'
import { runSync } from '@renderer/services/sync'
import { toastError, toastSuccess } from '@renderer/utils/feedback'
import { formatCount, formatDateTime } from '@renderer/utils/format'
import { LoadFailed } from '../home/LoadFailed'
import SiteWageSettings from './SiteWageSettings'
import WebhookDeliveries from './WebhookDeliveries'

/** How often the status is asked while a sync runs, and while none does (a scheduled one may start). */
export const RUNNING_POLL_MS = 1000
export const IDLE_POLL_MS = 15_000

export type SyncHealth = 'running' | 'error' | 'ok' | 'never'

export function syncHealth(status: SyncStatus): SyncHealth {
  if (status.running) return 'running'
  if (status.lastError) return 'error'
  return status.lastFinishedAt ? 'ok' : 'never'
}

const healthTags: Record<SyncHealth, { color: string; text: string }> = {
  running: { color: 'processing', text: '同步中' },
  error: { color: 'error', text: '同步出错' },
  ok: { color: 'success', text: '正常' },
  never: { color: 'default', text: '尚未同步' },
}

/** `site_torrents` → `种子`; a table this console does not know shows as its raw name. */
export const tableLabel = (table: string): string => (siteTableLabels as Record<string, string>)[table] ?? table

export interface RowsEntry {
  table: string
  label: string
  rows: number
}

/** Known tables in the page's order, then unknown ones by name. */
export function rowsEntries(rows: Record<string, number>): RowsEntry[] {
  const order = Object.keys(siteTableLabels)
  const rank = (table: string) => {
    const index = order.indexOf(table)
    return index === -1 ? order.length : index
  }
  return Object.entries(rows)
    .map(([table, count]) => ({ table, label: tableLabel(table), rows: count }))
    .sort((a, b) => rank(a.table) - rank(b.table) || (a.table < b.table ? -1 : a.table > b.table ? 1 : 0))
}

const minutes = (n: number) => `${Number(n.toFixed(1)).toLocaleString('zh-CN')} 分钟`

/**
 * The site keeps a silent peer (and counts it a seeder) longer than the rules call it active: a
 * keeper whose client announces at the site's longest interval flickers to 已停止 between announces.
 */
export function peerLifetimeExceedsWindow(site: SyncSite | undefined): boolean {
  return !!site && site.peerLifetimeMinutes !== null && site.peerLifetimeMinutes > site.activeWindowMinutes
}

function ProgressLine({ progress }: { progress: SyncProgress | null }) {
  if (!progress)
    return (
      <Typography.Text type="secondary" data-testid="sync-progress">
        正在同步…
      </Typography.Text>
    )
  const { table, read, total } = progress
  const known = total !== null && total > 0
  const step = (syncStepLabels as Record<string, string>)[table]
  if (step)
    return (
      <Flex vertical gap={4} data-testid="sync-progress">
        <Typography.Text>
          正在<Typography.Text strong>{step}</Typography.Text>
          {known ? `：${formatCount(read)} / ${formatCount(total)}` : '…'}
        </Typography.Text>
        {known && (
          <Progress percent={Math.min(100, Math.floor((read / total) * 100))} status="active" size="small" aria-label={`${step}进度`} />
        )}
      </Flex>
    )
  return (
    <Flex vertical gap={4} data-testid="sync-progress">
      <Typography.Text>
        正在读取 <Typography.Text strong>{tableLabel(table)}</Typography.Text>：{formatCount(read)}
        {total !== null ? ` / ${formatCount(total)}` : ' 行'}
      </Typography.Text>
      {known && (
        <Progress
          percent={Math.min(100, Math.floor((read / total) * 100))}
          status="active"
          size="small"
          aria-label={`${tableLabel(table)}同步进度`}
        />
      )}
    </Flex>
  )
}

const rowsColumns: TableColumnsType<RowsEntry> = [
  {
    title: '数据表',
    dataIndex: 'label',
    render: (label: string, entry) =>
      label === entry.table ? (
        label
      ) : (
        <Space size={8}>
          {label}
          <Typography.Text type="secondary">{entry.table}</Typography.Text>
        </Space>
      ),
  },
  { title: '行数', dataIndex: 'rows', align: 'right', width: 160, render: (rows: number) => formatCount(rows) },
]

export default function DataSyncPage() {
  const {
    data: status,
    error,
    isValidating,
    mutate,
  } = useApi('sync.status', undefined, {
    silent: true,
    // Every second while a sync runs; the global 2 s dedupe would halve that.
    dedupingInterval: 500,
    refreshInterval: (latest) => (latest?.running ? RUNNING_POLL_MS : IDLE_POLL_MS),
  })
  const [starting, setStarting] = useState(false)

  // A run that ends while the page is open says how it went.
  const wasRunning = useRef<boolean | null>(null)
  useEffect(() => {
    if (!status) return
    if (wasRunning.current && !status.running) {
      if (status.lastError) toastError(`同步出错：${status.lastError}`)
      else toastSuccess('同步完成')
    }
    wasRunning.current = status.running
  }, [status])

  const start = async () => {
    setStarting(true)
    try {
      const started = await runSync()
      await mutate(started, { revalidate: false })
    } catch {
      // request() has shown the server's message.
    } finally {
      setStarting(false)
    }
  }

  const entries = useMemo(() => rowsEntries(status?.rows ?? {}), [status?.rows])

  if (!status) {
    if (error) return <LoadFailed title="同步状态加载失败" error={error} retrying={isValidating} onRetry={() => void mutate()} />
    return <Skeleton active paragraph={{ rows: 6 }} />
  }

  const health = healthTags[syncHealth(status)]
  const syncing = starting || status.running
  return (
    <Flex vertical gap={16}>
      <Card
        title="数据同步"
        extra={
          // While a run starts or runs (from here, the schedule or another server process) the button says
          // so and takes no click; it reads 立即同步 again once the run has ended.
          <Button type="primary" icon={<SyncOutlined />} loading={syncing && { icon: <SyncOutlined spin /> }} onClick={() => void start()}>
            {syncing ? '同步中…' : '立即同步'}
          </Button>
        }
      >
        <Descriptions column={{ xs: 1, md: 2 }} size="small" data-testid="sync-summary">
          <Descriptions.Item label="数据源">
            <span data-testid="sync-source">{sourceKindLabels[status.source]}</span>
          </Descriptions.Item>
          <Descriptions.Item label="状态">
            <Tag color={health.color} data-testid="sync-health">
              {health.text}
            </Tag>
          </Descriptions.Item>
          <Descriptions.Item label="上次开始">
            <span data-testid="sync-started">{formatDateTime(status.lastStartedAt)}</span>
          </Descriptions.Item>
          <Descriptions.Item label="上次结束">
            <span data-testid="sync-finished">{formatDateTime(status.lastFinishedAt)}</span>
          </Descriptions.Item>
          {status.site && (
            <Descriptions.Item label="站点时区">
              <span data-testid="sync-site-zone">{status.site.timeZone}</span>
            </Descriptions.Item>
          )}
          {status.site && (
            <Descriptions.Item label="站点做种连接保留">
              <span data-testid="sync-site-peer-life">
                {status.site.peerLifetimeMinutes === null ? '未读到站点设置' : minutes(status.site.peerLifetimeMinutes)}
              </span>
            </Descriptions.Item>
          )}
        </Descriptions>
        {status.site && peerLifetimeExceedsWindow(status.site) && (
          <Alert
            type="warning"
            showIcon
            style={{ marginTop: 16 }}
            title="活跃判定窗口短于站点保留做种连接的时间"
            description={`站点把最近一次汇报后的做种连接保留 ${minutes(status.site.peerLifetimeMinutes!)}（站点设置 main.anninterthree × 1.3），并一直计入做种人数；规则的活跃判定窗口只有 ${minutes(status.site.activeWindowMinutes)}。按站点最长汇报间隔汇报的保种员会在两次汇报之间显示为「已停止」。请在「官种设置」的规则中把活跃判定窗口调到至少 ${Math.ceil(status.site.peerLifetimeMinutes!)} 分钟。`}
            data-testid="sync-site-warning"
          />
        )}
        {status.site?.zoneMismatch && (
          <Alert
            type="warning"
            showIcon
            style={{ marginTop: 16 }}
            title="规则时区与站点时区不同"
            description={`工资按规则时区 ${status.site.zoneMismatch.rulesTimeZone}（UTC${status.site.zoneMismatch.rulesOffset}）划分月份、取月底快照；站点时间和站点的认领结算按站点时区 ${status.site.timeZone}（UTC${status.site.zoneMismatch.siteOffset}）。两者不同时，月初月末前后几个小时的做种和认领会算进不同的月份。请在「官种设置」中把规则时区设为站点时区；若站点时区不对，请改服务端的 NEXUSPHP_TIMEZONE。`}
            data-testid="sync-zone-warning"
          />
        )}
        {!!status.site?.wageDifferences?.length && (
          <SiteWageSettings differences={status.site.wageDifferences} onApplied={() => void mutate()} />
        )}
        {!!status.site?.dataNotes?.length && (
          <Alert
            type="warning"
            showIcon
            style={{ marginTop: 16 }}
            title="站点数据中有无法照原样保存的值，同步已按下列方式处理"
            description={
              <ul style={{ margin: 0, paddingInlineStart: 20 }}>
                {status.site.dataNotes.map((note) => (
                  <li key={note.message}>
                    {note.message.replace(/^站点数据异常：/, '')}（{formatCount(note.rows)} 行）
                  </li>
                ))}
              </ul>
            }
            data-testid="sync-site-data-notes"
          />
        )}
        {status.running && (
          <div style={{ marginTop: 16 }}>
            <ProgressLine progress={status.progress} />
          </div>
        )}
        {status.lastError && (
          <Alert
            type="error"
            showIcon
            style={{ marginTop: 16 }}
            title={status.running ? '上次同步出错' : '同步出错'}
            description={<span style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{status.lastError}</span>}
            data-testid="sync-error"
          />
        )}
        {status.source === 'ingest' && (
          <Typography.Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 0 }}>
            推送接入：站点数据由 tracker 推送到 /api/v1/ingest/snapshot；同步会把推送的数据重新判定为做种记录。
          </Typography.Paragraph>
        )}
      </Card>

      <Card title="上次同步写入的行数" size="small">
        <Table<RowsEntry>
          rowKey="table"
          size="small"
          columns={rowsColumns}
          dataSource={entries}
          pagination={false}
          locale={{ emptyText: status.lastFinishedAt ? '上次同步没有写入数据' : '尚无同步记录' }}
          data-testid="sync-rows"
        />
      </Card>

      <WebhookDeliveries source={status.source} />
    </Flex>
  )
}
