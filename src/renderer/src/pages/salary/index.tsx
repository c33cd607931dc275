/**
 * 我的工资: the current user's wage records by month (wages.page; the server limits members to
 * their own, and the page sends the user's own id so an admin sees theirs too). A row opens the
 * per-torrent breakdown with each non-qualifying reason.
 */
import { useMemo, useState } from 'react'
import { Typography } from 'antd'
import type { WagePreviewEntry, WageRecord } from '@shared/entities'
import { sortableWageFields } from '@shared/endpoints'
import { wagePaymentLabels } from '@shared/enums'
import DataTable, { type DataTableColumn } from '@renderer/components/DataTable'
import WageBreakdownDrawer, {
  AVERAGE_HOURS_HELP,
  PartialMonthTag,
  PaymentTag,
  TOTAL_HOURS_HELP,
  averageSeedHours,
  formatDaysHours,
  formatHours,
  type BreakdownSource,
} from '@renderer/components/WageBreakdownDrawer'
import { withSiteArrival, type WageRecordWithArrival } from '@renderer/services/payout'
import { wagePage } from '@renderer/services/wages'
import { siteArrivalCell } from '../salary-computed/payout/SiteArrival'
import { useCurrentUser } from '@renderer/stores/user'
import { enumOptions } from '@renderer/utils/enumOptions'
import { formatAmount, formatBytes, formatDateTime } from '@renderer/utils/format'

export const SALARY_TABLE_KEY = 'salary.mine'

export { PartialMonthTag }

/** 平均做种时长 (what the formula uses) and 累计做种时长 (in days) of a wage record or preview entry. */
export function seedHoursColumns<T extends WageRecord | WagePreviewEntry>(sortable: { average?: boolean; total?: boolean } = {}): DataTableColumn<T>[] {
  return [
    {
      title: '平均做种时长',
      onHeaderCell: () => ({ title: AVERAGE_HOURS_HELP }),
      key: 'avgSeedHours',
      width: 130,
      align: 'right',
      render: (_, wage) => formatHours(averageSeedHours(wage)),
      sorter: sortable.average ? (a, b) => averageSeedHours(a) - averageSeedHours(b) : undefined,
    },
    {
      title: '累计做种时长',
      onHeaderCell: () => ({ title: TOTAL_HOURS_HELP }),
      dataIndex: 'seedHours',
      width: 150,
      align: 'right',
      render: (hours: number) => formatDaysHours(hours),
      sorter: sortable.total ? (a, b) => a.seedHours - b.seedHours : undefined,
    },
  ]
}

export const amountCell = (amount: number) => (
  <Typography.Text strong>
    {formatAmount(amount)} <Typography.Text type="secondary">魔力</Typography.Text>
  </Typography.Text>
)

const columns: DataTableColumn<WageRecord>[] = [
  {
    title: '月份',
    dataIndex: 'period',
    width: 170,
    render: (period: string, record) => (
      <>
        {period}
        <PartialMonthTag partial={record.partial} />
      </>
    ),
  },
  { title: '金额', dataIndex: 'amount', width: 160, align: 'right', render: amountCell },
  { title: '达标种子数', dataIndex: 'torrentCount', width: 110, align: 'right' },
  { title: '达标体积', dataIndex: 'totalSize', width: 120, align: 'right', render: (size: number) => formatBytes(size) },
  ...seedHoursColumns<WageRecord>(),
  {
    title: '发放状态',
    dataIndex: 'payment',
    width: 100,
    search: { type: 'select', options: enumOptions(wagePaymentLabels) },
    render: (_, record) => <PaymentTag payment={record.payment} />,
  },
  { title: '发放时间', dataIndex: 'paidAt', width: 150, render: (time: string | null) => formatDateTime(time) },
  { title: '到账站点', key: 'siteArrival', width: 200, render: (_, record) => siteArrivalCell((record as WageRecordWithArrival).siteArrival) },
  { title: '规则版本', dataIndex: 'ruleVersion', width: 90, hiddenByDefault: true, render: (version: number) => `v${version}` },
  { title: '计算时间', dataIndex: 'computedAt', width: 150, hiddenByDefault: true, render: (time: string) => formatDateTime(time) },
]

/** 发放到站点: whether and when each record reached the site. */
const wagePageWithArrival = withSiteArrival(wagePage)

export default function SalaryPage() {
  const user = useCurrentUser()
  const [source, setSource] = useState<BreakdownSource | null>(null)
  const params = useMemo(() => ({ userId: user?.id }), [user?.id])
  if (!user) return null
  return (
    <>
      <DataTable<WageRecord>
        tableKey={SALARY_TABLE_KEY}
        title="我的工资"
        rowKey="id"
        columns={columns}
        sortableFields={sortableWageFields.wagesPage}
        params={params}
        request={wagePageWithArrival}
        onRow={(record) => ({ onClick: () => setSource({ kind: 'record', id: record.id }), style: { cursor: 'pointer' } })}
      />
      <WageBreakdownDrawer source={source} onClose={() => setSource(null)} />
    </>
  )
}
