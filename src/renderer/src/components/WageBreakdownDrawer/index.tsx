/**
 * The per-torrent breakdown of one wage: a saved record (`GET /wages/{id}`) or a member's unsaved
 * preview (`POST /wages/preview` with `userId`). Non-qualifying torrents show why, in red.
 */
import { useEffect, useState } from 'react'
import { CheckOutlined, CloseOutlined } from '@ant-design/icons'
import { Alert, Descriptions, Drawer, Flex, Skeleton, Table, Tag, Typography, theme, type TableColumnsType } from 'antd'
import type { WageItem } from '@shared/entities'
import { wagePaymentLabels } from '@shared/enums'
import { RequestError } from '@renderer/services/request'
import { previewWages, wageDetail } from '@renderer/services/wages'
import { formatAmount, formatBytes, formatDateTime } from '@renderer/utils/format'

export type BreakdownSource = { kind: 'record'; id: number } | { kind: 'preview'; period: string; userId: number }

/** What the drawer shows: a saved record or a preview entry, with items. */
export interface Breakdown {
  username: string
  period: string
  amount: number
  torrentCount: number
  totalSize: number
  seedHours: number
  ruleVersion: number
  items: WageItem[]
  payment?: 0 | 1
  paidAt?: string | null
  belowMinimum?: boolean
}

export async function loadBreakdown(source: BreakdownSource): Promise<Breakdown> {
  if (source.kind === 'record') return wageDetail(source.id, { silent: true })
  const answer = await previewWages(source.period, source.userId, { silent: true })
  const entry = answer.list.find((item) => item.userId === source.userId)
  if (!entry) throw new RequestError(404, '该保种员在本月没有工资结果')
  return { ...entry, items: entry.items ?? [], ruleVersion: entry.ruleVersion ?? answer.ruleVersion }
}

export const formatHoursNumber = (hours: number) => hours.toLocaleString('zh-CN', { maximumFractionDigits: 1 })

export function PaymentTag({ payment }: { payment: 0 | 1 }) {
  return <Tag color={payment === 1 ? 'green' : 'orange'}>{wagePaymentLabels[payment]}</Tag>
}

function QualifiedCell({ item }: { item: WageItem }) {
  const { token } = theme.useToken()
  if (item.qualified)
    return (
      <span style={{ color: token.colorSuccess }} aria-label="达标">
        <CheckOutlined /> 达标
      </span>
    )
  return (
    <Flex vertical gap={2}>
      <span style={{ color: token.colorError }} aria-label="未达标">
        <CloseOutlined /> 未达标
      </span>
      {item.reason && (
        <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid="wage-item-reason">
          {item.reason}
        </Typography.Text>
      )}
    </Flex>
  )
}

const columns: TableColumnsType<WageItem> = [
  { title: '种子名称', dataIndex: 'torrentName', width: 260, ellipsis: true },
  { title: '体积', dataIndex: 'size', width: 100, align: 'right', render: (size: number) => formatBytes(size) },
  { title: '做种人数', dataIndex: 'seeders', width: 80, align: 'right' },
  { title: '做种时长(小时)', dataIndex: 'seedHours', width: 120, align: 'right', render: (hours: number) => formatHoursNumber(hours) },
  { title: '上传量', dataIndex: 'uploaded', width: 100, align: 'right', render: (uploaded: number) => formatBytes(uploaded) },
  { title: '保种排名', dataIndex: 'keeperRank', width: 80, align: 'right' },
  { title: '价值', dataIndex: 'value', width: 100, align: 'right', render: (value: number) => formatAmount(value) },
  { title: '达标', key: 'qualified', width: 180, render: (_, item) => <QualifiedCell item={item} /> },
]

export interface WageBreakdownDrawerProps {
  source: BreakdownSource | null
  onClose(): void
}

export default function WageBreakdownDrawer({ source, onClose }: WageBreakdownDrawerProps) {
  const [state, setState] = useState<{ key: string; data?: Breakdown; error?: string } | null>(null)
  const key = source ? JSON.stringify(source) : null

  useEffect(() => {
    if (!source || !key) return
    let live = true
    setState({ key })
    loadBreakdown(source)
      .then((data) => live && setState({ key, data }))
      .catch((error: unknown) => live && setState({ key, error: error instanceof RequestError ? error.msg : '加载失败' }))
    return () => {
      live = false
    }
    // `key` stands for `source` by value.
  }, [key])

  const current = state?.key === key ? state : null
  const data = current?.data
  const qualified = data?.items.filter((item) => item.qualified).length ?? 0

  return (
    <Drawer
      open={source !== null}
      onClose={onClose}
      size={1080}
      title={data ? `${data.username} · ${data.period} 工资明细` : '工资明细'}
      destroyOnHidden
      data-testid="wage-breakdown"
    >
      {current?.error ? (
        <Alert type="error" showIcon title={current.error} />
      ) : !data ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <Flex vertical gap={16}>
          <Descriptions size="small" bordered column={3} data-testid="wage-breakdown-summary">
            <Descriptions.Item label="月份">{data.period}</Descriptions.Item>
            <Descriptions.Item label="金额">{formatAmount(data.amount)} 魔力</Descriptions.Item>
            <Descriptions.Item label="规则版本">v{data.ruleVersion}</Descriptions.Item>
            <Descriptions.Item label="达标种子数">{data.torrentCount}</Descriptions.Item>
            <Descriptions.Item label="达标体积">{formatBytes(data.totalSize)}</Descriptions.Item>
            <Descriptions.Item label="做种时长(小时)">{formatHoursNumber(data.seedHours)}</Descriptions.Item>
            {data.payment !== undefined && (
              <Descriptions.Item label="发放状态">
                <PaymentTag payment={data.payment} />
              </Descriptions.Item>
            )}
            {data.payment !== undefined && <Descriptions.Item label="发放时间">{formatDateTime(data.paidAt ?? null)}</Descriptions.Item>}
            {data.belowMinimum && (
              <Descriptions.Item label="说明">
                <Tag color="red">低于最低要求</Tag>
              </Descriptions.Item>
            )}
          </Descriptions>
          <Typography.Text type="secondary">
            共 {data.items.length} 个种子，其中 {qualified} 个达标
          </Typography.Text>
          <Table<WageItem>
            size="small"
            rowKey="torrentId"
            columns={columns}
            dataSource={data.items}
            scroll={{ x: 1020 }}
            sticky
            pagination={{ defaultPageSize: 50, showSizeChanger: true, pageSizeOptions: ['20', '50', '100', '200'], showTotal: (total) => `共 ${total} 条` }}
          />
        </Flex>
      )}
    </Drawer>
  )
}
