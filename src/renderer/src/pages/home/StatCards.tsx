/** The six stat cards of the team figures. */
import type { ReactNode } from 'react'
import { Card, Col, Row, Skeleton, Statistic, Typography } from 'antd'
import type { AllSeedingStats } from '@shared/entities'
import { HelpTitle } from '@renderer/components/WageBreakdownDrawer'
import { formatAmount, formatBytes, formatCount } from '@renderer/utils/format'
import { completionRate, ESTIMATE_HELP, formatPercent, seedingRecords } from './stats'

interface StatCardProps {
  title: string
  value: string
  suffix?: string
  /** One line of context under the figure. */
  note?: ReactNode
  /** What the figure counts, on hover of the title. */
  help?: string
}

/** A figure with its title; `value` is already formatted (sizes, percentages, amounts). */
export function StatCard({ title, value, suffix, note, help }: StatCardProps) {
  return (
    <Card size="small" style={{ height: '100%' }} data-testid={`stat-${title}`}>
      <Statistic title={help ? <HelpTitle title={title} help={help} /> : title} value={value} suffix={suffix} />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {note ?? '\u00a0'}
      </Typography.Text>
    </Card>
  )
}

const cardSpan = { xs: 24, sm: 12, xl: 8, xxl: 4 } as const

export function statCards(stats: AllSeedingStats): StatCardProps[] {
  return [
    { title: '官种数', value: formatCount(stats.officialTorrents) },
    { title: '官种总体积', value: formatBytes(stats.officialSize) },
    {
      title: '官种完成率',
      value: formatPercent(completionRate(stats)),
      note: `已完成 ${formatCount(stats.completedOfficial)} / ${formatCount(stats.officialTorrents)}`,
    },
    {
      title: '保种员人数',
      value: formatCount(stats.members),
      note: `活跃 ${formatCount(stats.activeMembers)} 人`,
      help: '状态正常的保种员，不含已封禁、已删除的保种员和管理员（工资计算另含已封禁的保种员和绑定了站点 UID 的管理员）',
    },
    {
      title: '做种中记录',
      value: formatCount(seedingRecords(stats.byStatus)),
      // The volume is the server's seeding flag (every record seeding now), a wider set than the count's two statuses.
      note: `全部做种体积 ${formatBytes(stats.seedingSize)}`,
      help: '状态为「做种中」「做种中（未认领）」的记录数；下方的做种体积另含正在做种的「无工资」和发布者记录',
    },
    { title: '本月预计工资总额', value: formatAmount(stats.estimatedWages), suffix: '魔力', help: ESTIMATE_HELP },
  ]
}

export default function StatCards({ stats }: { stats: AllSeedingStats }) {
  return (
    <Row gutter={[16, 16]}>
      {statCards(stats).map((card) => (
        <Col key={card.title} {...cardSpan}>
          <StatCard {...card} />
        </Col>
      ))}
    </Row>
  )
}

export function StatCardsSkeleton({ count = 6 }: { count?: number }) {
  return (
    <Row gutter={[16, 16]}>
      {Array.from({ length: count }, (_, index) => (
        <Col key={index} {...cardSpan}>
          <Card size="small">
            <Skeleton active title={false} paragraph={{ rows: 2 }} />
          </Card>
        </Col>
      ))}
    </Row>
  )
}
