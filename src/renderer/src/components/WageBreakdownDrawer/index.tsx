/**
 * The per-torrent breakdown of one wage: a saved record (`GET /wages/{id}`) or a member's unsaved
 * preview (`POST /wages/preview` with `userId`). Non-qualifying torrents show why, in red.
 */
import { Alert, Descriptions, Drawer, Flex, Skeleton, Tag, Typography } from 'antd'
import type { WageItem } from '@shared/entities'
import { WagePayment, wagePaymentLabels } from '@shared/enums'
import { READ_ONCE, useLoad, useOpening } from '@renderer/hooks/useApi'
import { RequestError } from '@renderer/services/request'
import { previewWages, wageDetail } from '@renderer/services/wages'
import { formatAmount, formatBytes, formatCount, formatDateTime, formatHours } from '@renderer/utils/format'
import { AVERAGE_HOURS_HELP, HelpTitle, averageSeedHours, formatSeedHours } from './hours'
import { PartialMonthTag } from './PartialMonthTag'
import WageItemsTable from './WageItemsTable'

export { AVERAGE_HOURS_HELP, TOTAL_HOURS_HELP, HelpTitle, averageSeedHours, figureCell, formatHoursNumber, formatSeedHours } from './hours'
export { PartialMonthTag } from './PartialMonthTag'

export type BreakdownSource = { kind: 'record'; id: number } | { kind: 'preview'; period: string; userId: number }

/** What the drawer shows: a saved record or a preview entry, with items. */
export interface Breakdown {
  username: string
  period: string
  amount: number
  torrentCount: number
  totalSize: number
  /** Summed over the qualified torrents. */
  seedHours: number
  avgSeedHours?: number
  ruleVersion: number
  items: WageItem[]
  partial?: boolean
  payment?: WagePayment
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

export function PaymentTag({ payment }: { payment: WagePayment }) {
  return <Tag color={payment === WagePayment.Paid ? 'green' : 'orange'}>{wagePaymentLabels[payment]}</Tag>
}

export interface WageBreakdownDrawerProps {
  source: BreakdownSource | null
  onClose(): void
}

export default function WageBreakdownDrawer({ source, onClose }: WageBreakdownDrawerProps) {
  // Each opening reads anew (a record may have been paid since).
  const opening = useOpening(source !== null)
  const { data, error } = useLoad('wages.breakdown', source && { source, opening }, (args) => loadBreakdown(args.source), READ_ONCE)
  const errorText = error ? (error instanceof RequestError ? error.msg : '加载失败') : null
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
      {errorText ? (
        <Alert type="error" showIcon title={errorText} />
      ) : !data ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <Flex vertical gap={16}>
          <Descriptions size="small" bordered column={3} data-testid="wage-breakdown-summary">
            <Descriptions.Item label="月份">{data.period}</Descriptions.Item>
            <Descriptions.Item label="金额">{formatAmount(data.amount)} 魔力</Descriptions.Item>
            <Descriptions.Item label="规则版本">v{data.ruleVersion}</Descriptions.Item>
            <Descriptions.Item label="达标种子数">{formatCount(data.torrentCount)}</Descriptions.Item>
            <Descriptions.Item label="达标体积">{formatBytes(data.totalSize)}</Descriptions.Item>
            <Descriptions.Item label={<HelpTitle title="平均做种时长" help={AVERAGE_HOURS_HELP} />}>
              {formatSeedHours(averageSeedHours(data))}
            </Descriptions.Item>
            <Descriptions.Item label="累计做种时长">{formatHours(data.seedHours)}</Descriptions.Item>
            {data.payment !== undefined && (
              <Descriptions.Item label="发放状态">
                <PaymentTag payment={data.payment} />
              </Descriptions.Item>
            )}
            {data.payment !== undefined && <Descriptions.Item label="发放时间">{formatDateTime(data.paidAt ?? null)}</Descriptions.Item>}
            {(data.belowMinimum || data.partial) && (
              <Descriptions.Item label="说明">
                {data.belowMinimum && <Tag color="red">低于最低要求</Tag>}
                <PartialMonthTag partial={data.partial} />
              </Descriptions.Item>
            )}
          </Descriptions>
          <Typography.Text type="secondary">
            共 {formatCount(data.items.length)} 个种子，其中 {formatCount(qualified)} 个达标
          </Typography.Text>
          <WageItemsTable items={data.items} />
        </Flex>
      )}
    </Drawer>
  )
}
