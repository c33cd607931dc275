/** A member's own block: their seeding figures, records by status, wage and rank, 30-day line. */
import { useMemo } from 'react'
import { Card, Col, Flex, Row, Skeleton, Statistic, Typography } from 'antd'
import { Link } from 'react-router-dom'
import type { UserSeedingStats } from '@shared/entities'
import { seedStatusLabels, seedStatusValues } from '@shared/enums'
import Chart from '@renderer/components/Chart'
import { SeedStatusTag } from '@renderer/components/StatusTags'
import { HelpTitle } from '@renderer/components/WageBreakdownDrawer'
import { SEEDING_COUNT_HELP } from '@renderer/components/seedingCountHelp'
import { useApi } from '@renderer/hooks/useApi'
import { formatAmount, formatBytes, formatCount } from '@renderer/utils/format'
import { myDailyOption } from './chartOptions'
import { LoadFailed } from './LoadFailed'
import { usePalette } from './palette'
import { ESTIMATE_HELP, rankText } from './stats'
import { ChartEmpty } from './TeamCharts'

const MY_CHART_HEIGHT = 240

/** Each status with its count; a tag opens 我的任务 filtered by that status. */
function StatusCounts({ byStatus }: { byStatus: UserSeedingStats['byStatus'] }) {
  return (
    <Flex vertical gap={8} data-testid="my-status-counts">
      {seedStatusValues.map((status) => (
        <Flex key={status} justify="space-between" align="center">
          <Link to={`/task?status=${status}`} title={`在我的任务中查看「${seedStatusLabels[status]}」的记录`}>
            <SeedStatusTag status={status} />
          </Link>
          <Typography.Text strong>{formatCount(byStatus[status])}</Typography.Text>
        </Flex>
      ))}
    </Flex>
  )
}

function MyFigures({ stats }: { stats: UserSeedingStats }) {
  const palette = usePalette()
  const option = useMemo(() => myDailyOption(stats.daily, palette), [stats.daily, palette])
  return (
    <Flex vertical gap={16}>
      <Row gutter={[16, 16]}>
        <Col xs={12} lg={6}>
          <Statistic title={<HelpTitle title="我的做种数" help={SEEDING_COUNT_HELP} />} value={formatCount(stats.seedingCount)} />
        </Col>
        <Col xs={12} lg={6}>
          <Statistic title="我的做种体积" value={formatBytes(stats.seedingSize)} />
        </Col>
        <Col xs={12} lg={6}>
          <Statistic
            title={<HelpTitle title="本月预计工资" help={ESTIMATE_HELP} />}
            value={formatAmount(stats.estimatedWage)}
            suffix="魔力"
          />
        </Col>
        <Col xs={12} lg={6}>
          <Statistic title="本月排名" value={rankText(stats.rank)} />
        </Col>
      </Row>
      <Row gutter={[24, 16]}>
        <Col xs={24} lg={8} xxl={6}>
          <Typography.Text type="secondary">我的记录状态</Typography.Text>
          <div style={{ marginTop: 8 }}>
            <StatusCounts byStatus={stats.byStatus} />
          </div>
        </Col>
        <Col xs={24} lg={16} xxl={18}>
          <Typography.Text type="secondary">近 30 天我的做种体积与上传量</Typography.Text>
          {stats.daily.length > 0 ? (
            <Chart ariaLabel="近 30 天我的做种" height={MY_CHART_HEIGHT} option={option} />
          ) : (
            <ChartEmpty description="暂无做种历史" />
          )}
        </Col>
      </Row>
    </Flex>
  )
}

export default function MyStats() {
  // No userId: the server answers with the caller's own figures.
  const { data, error, isValidating, mutate } = useApi('statistics.user', undefined, { silent: true })
  let body
  if (data) body = <MyFigures stats={data} />
  else if (error) body = <LoadFailed title="我的统计加载失败" error={error} retrying={isValidating} onRetry={() => void mutate()} />
  else body = <Skeleton active paragraph={{ rows: 6 }} />
  return (
    <Card title="我的保种" extra={<Link to="/task">查看我的任务</Link>} data-testid="my-stats">
      {body}
    </Card>
  )
}
