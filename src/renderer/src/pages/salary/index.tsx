/**
 * 我的工资: the current user's wage records by month (wages.page; the server limits members to
 * their own, and the page sends the user's own id so an admin sees theirs too). A row opens the
 * per-torrent breakdown with each non-qualifying reason.
 */
import { useMemo, useState } from 'react'
import type { WageRecord } from '@shared/entities'
import { sortableWageFields } from '@shared/endpoints'
import DataTable from '@renderer/components/DataTable'
import WageBreakdownDrawer, { PartialMonthTag, type BreakdownSource } from '@renderer/components/WageBreakdownDrawer'
import { wageRecordColumns } from '@renderer/components/wageColumns'
import { withSiteArrival, type WageRecordWithArrival } from '@renderer/services/payout'
import { wagePage } from '@renderer/services/wages'
import { SiteArrivalTag } from '../salary-computed/payout/SiteArrival'
import { useCurrentUser } from '@renderer/stores/user'
import { keyboardOpen } from '@renderer/utils/keyboardOpen'

export const SALARY_TABLE_KEY = 'salary.mine'

// The widths add up to 980 px, within what a 1280 px window gives the table (test/layout TABLE_WIDTH_AT_1280):
// 累计做种时长 (the formula uses the average; the breakdown shows both) starts hidden, one click away in 列设置.
const columns = wageRecordColumns({
  lead: {
    title: '月份',
    dataIndex: 'period',
    // The month and its 部分月份 tag on one line in the widest UI font.
    width: 150,
    render: (period: string, record) => (
      <>
        {period}
        <PartialMonthTag partial={record.partial} />
      </>
    ),
  },
  afterPaidAt: {
    title: '到账站点',
    key: 'siteArrival',
    // The state; the time it arrived on hover (it is the month's 发放时间, one column to the left).
    width: 90,
    render: (_, record) => <SiteArrivalTag arrival={(record as WageRecordWithArrival).siteArrival} />,
  },
  hidden: ['seedHours', 'ruleVersion'],
  // What a member looks for first: was the month paid, when, and did it reach the site.
  paymentAfterAmount: 'all',
})

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
        onRow={(record) => {
          const open = () => setSource({ kind: 'record', id: record.id })
          return { onClick: open, style: { cursor: 'pointer' }, ...keyboardOpen(open) }
        }}
      />
      <WageBreakdownDrawer source={source} onClose={() => setSource(null)} />
    </>
  )
}
