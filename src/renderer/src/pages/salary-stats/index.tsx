/**
 * 工资统计 (admins): per month paid and unpaid totals (stacked bars), average and median wage
 * (lines) over the last 12 computed months, the newest month's distribution (histogram) and a
 * table of the months.
 */
import { useMemo } from 'react'
import { Alert, Button, Card, Col, Empty, Flex, Row, Skeleton, Table, Typography, theme, type TableColumnsType } from 'antd'
import type { WageStats } from '@shared/entities'
import Chart from '@renderer/components/Chart'
import { useApi } from '@renderer/hooks/useApi'
import { formatAmount, formatCount } from '@renderer/utils/format'
import NoWagesYet from './NoWagesYet'
import { averagesOption, distributionOption, totalsOption, type StatsColours } from './chartOptions'

export const STATS_MONTHS = 12

type Month = WageStats['months'][number]

const amount = (value: number) => `${formatAmount(value)}`

const columns: TableColumnsType<Month> = [
  { title: '月份', dataIndex: 'period', width: 100 },
  { title: '已发放', dataIndex: 'paid', width: 140, align: 'right', render: amount },
  { title: '未发放', dataIndex: 'unpaid', width: 140, align: 'right', render: amount },
  {
    title: '合计',
    key: 'total',
    width: 140,
    align: 'right',
    render: (_, month) => amount(Math.round((month.paid + month.unpaid) * 100) / 100),
  },
  {
    title: '领取人数',
    dataIndex: 'paidMembers',
    width: 100,
    align: 'right',
    onHeaderCell: () => ({ title: '已发放工资的保种员人数' }),
    render: (paid: number | undefined) => formatCount(paid),
  },
  {
    title: '有工资人数',
    dataIndex: 'members',
    width: 110,
    align: 'right',
    onHeaderCell: () => ({ title: '工资大于 0 的保种员人数（含未发放）' }),
    render: (members: number) => formatCount(members),
  },
  { title: '平均工资', dataIndex: 'average', width: 130, align: 'right', render: amount },
  { title: '中位工资', dataIndex: 'median', width: 130, align: 'right', render: amount },
]

export default function SalaryStatsPage() {
  // Silent: a failure shows in the page (with 重试), not as a toast as well — again at each background retry.
  const { data, error, isLoading, mutate } = useApi('wages.stats', { months: STATS_MONTHS }, { silent: true })
  const { token } = theme.useToken()
  const colours = useMemo<StatsColours>(
    () => ({ paid: token.colorPrimary, unpaid: token.orange, average: token.blue, median: token.purple, histogram: token.cyan }),
    [token],
  )
  const months = data?.months
  const totals = useMemo(() => (months ? totalsOption(months, colours) : null), [months, colours])
  const averages = useMemo(() => (months ? averagesOption(months, colours) : null), [months, colours])
  const distribution = useMemo(() => (data ? distributionOption(data.distribution, colours) : null), [data, colours])
  const latest = months?.[months.length - 1]

  if (error && !data)
    return (
      <Alert
        type="error"
        showIcon
        title="工资统计加载失败"
        description={error.msg}
        action={
          <Button size="small" onClick={() => void mutate()}>
            重试
          </Button>
        }
      />
    )
  if (isLoading || !data) return <Skeleton active paragraph={{ rows: 12 }} />
  if (data.months.length === 0)
    return (
      <Card>
        <NoWagesYet description="尚未生成任何月份的工资" />
      </Card>
    )

  return (
    <Flex vertical gap={16}>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <Card size="small" title={`近 ${STATS_MONTHS} 个月工资总额`}>
            <Chart option={totals!} height={300} ariaLabel="工资发放情况" />
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card size="small" title="平均与中位工资">
            <Chart option={averages!} height={300} ariaLabel="平均与中位工资" />
          </Card>
        </Col>
        <Col span={24}>
          <Card
            size="small"
            title={`${latest?.period ?? ''} 工资分布`}
            extra={<Typography.Text type="secondary">只统计工资大于 0 的保种员</Typography.Text>}
          >
            {data.distribution.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="该月没有工资大于 0 的保种员" />
            ) : (
              <Chart option={distribution!} height={280} ariaLabel="工资分布" />
            )}
          </Card>
        </Col>
      </Row>
      <Card size="small" title="按月统计" extra={<Typography.Text type="secondary">金额单位：魔力</Typography.Text>}>
        <Table<Month>
          size="middle"
          rowKey="period"
          columns={columns}
          dataSource={[...data.months].reverse()}
          pagination={false}
          scroll={{ x: 990 }}
          data-testid="wage-stats-table"
        />
      </Card>
    </Flex>
  )
}
