/** The four team charts: statuses, completion labels, 30-day seeding volume, wage top 10. */
import { useMemo, type ReactNode } from 'react'
import { Card, Col, Empty, Flex, Row, Skeleton } from 'antd'
import type { AllSeedingStats } from '@shared/entities'
import Chart from '@renderer/components/Chart'
import { completionOption, statusOption, teamDailyOption, topWagesOption } from './chartOptions'
import { usePalette } from './palette'

export const CHART_HEIGHT = 300

const chartSpan = { xs: 24, xl: 12 } as const

export function ChartCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card size="small" title={title} style={{ height: '100%' }}>
      {children}
    </Card>
  )
}

/** Empty state in the chart's place, the same height so the grid does not jump. */
export function ChartEmpty({ description }: { description: string }) {
  return (
    <Flex align="center" justify="center" style={{ height: CHART_HEIGHT }}>
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={description} />
    </Flex>
  )
}

export default function TeamCharts({ stats }: { stats: AllSeedingStats }) {
  const palette = usePalette()
  // Options by value of the figures: a re-render with the same figures must not redraw (and re-animate).
  const options = useMemo(
    () => ({
      status: statusOption(stats.byStatus, palette),
      completion: completionOption(stats.byCompletion, palette),
      daily: teamDailyOption(stats.daily, palette),
      topWages: topWagesOption(stats.topWages, palette),
    }),
    [stats, palette],
  )
  return (
    <Row gutter={[16, 16]}>
      <Col {...chartSpan}>
        <ChartCard title="做种记录状态分布">
          <Chart ariaLabel="做种记录状态分布" height={CHART_HEIGHT} option={options.status} />
        </ChartCard>
      </Col>
      <Col {...chartSpan}>
        <ChartCard title="种子完成情况">
          {/* With no torrents at all (a new install) the donut split its ring into four equal slices of 0. */}
          {Object.values(stats.byCompletion).some((count) => count > 0) ? (
            <Chart ariaLabel="种子完成情况" height={CHART_HEIGHT} option={options.completion} />
          ) : (
            <ChartEmpty description="暂无种子" />
          )}
        </ChartCard>
      </Col>
      <Col {...chartSpan}>
        <ChartCard title="近 30 天团队做种量">
          {stats.daily.length > 0 ? (
            <Chart ariaLabel="近 30 天团队做种量" height={CHART_HEIGHT} option={options.daily} />
          ) : (
            <ChartEmpty description="暂无做种历史" />
          )}
        </ChartCard>
      </Col>
      <Col {...chartSpan}>
        <ChartCard title="本月预计工资 Top 10">
          {stats.topWages.length > 0 ? (
            <Chart ariaLabel="本月预计工资排行" height={CHART_HEIGHT} option={options.topWages} />
          ) : (
            <ChartEmpty description="本月尚无工资数据" />
          )}
        </ChartCard>
      </Col>
    </Row>
  )
}

export function TeamChartsSkeleton() {
  return (
    <Row gutter={[16, 16]}>
      {Array.from({ length: 4 }, (_, index) => (
        <Col key={index} {...chartSpan}>
          <Card size="small">
            <Skeleton active paragraph={{ rows: 7 }} />
          </Card>
        </Col>
      ))}
    </Row>
  )
}
