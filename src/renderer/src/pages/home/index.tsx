/**
 * 首页 — the dashboard: a greeting line, the team's stat cards and charts (statistics.all, served
 * from the server's cache), the admin's 刷新统计, and for members their own block.
 * Who sees what comes from the current user's role (stores/user), never from the data.
 */
import { useState } from 'react'
import { ReloadOutlined } from '@ant-design/icons'
import { Button, Flex, Space, Typography } from 'antd'
import type { LoginInfo } from '@shared/entities'
import NoSiteUidAlert from '@renderer/components/NoSiteUidAlert'
import { useApi } from '@renderer/hooks/useApi'
import { refreshStatistics } from '@renderer/services/statistics'
import { RequestError } from '@renderer/services/request'
import { useCurrentUser } from '@renderer/stores/user'
import { toastSuccess } from '@renderer/utils/feedback'
import { formatDateTime } from '@renderer/utils/format'
import { greeting } from './greeting'
import { LoadFailed } from './LoadFailed'
import MyStats from './MyStats'
import StatCards, { StatCardsSkeleton } from './StatCards'
import TeamCharts, { TeamChartsSkeleton } from './TeamCharts'

function welcomeLine(user: LoginInfo): string {
  return user.role === 'admin' ? '官种、任务分配与工资发放都从这里开始。' : '感谢你为官种保种，祝做种顺利！'
}

interface GreetingBarProps {
  user: LoginInfo
  computedAt: string | undefined
  /** Only given to admins: recomputes the figures now. */
  onRefresh?: () => Promise<void>
}

function GreetingBar({ user, computedAt, onRefresh }: GreetingBarProps) {
  const [refreshing, setRefreshing] = useState(false)
  const refresh = async () => {
    if (!onRefresh) return
    setRefreshing(true)
    try {
      await onRefresh()
    } finally {
      setRefreshing(false)
    }
  }
  return (
    <Flex justify="space-between" align="center" wrap gap={8}>
      <Space size={12} align="baseline" wrap>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {greeting(new Date().getHours())}，{user.username}
        </Typography.Title>
        <Typography.Text type="secondary">{welcomeLine(user)}</Typography.Text>
      </Space>
      <Space size={12} wrap>
        {computedAt && (
          <Typography.Text type="secondary" data-testid="computed-at">
            统计时间：{formatDateTime(computedAt)}
          </Typography.Text>
        )}
        {onRefresh && (
          <Button icon={<ReloadOutlined />} loading={refreshing} onClick={() => void refresh()}>
            刷新统计
          </Button>
        )}
      </Space>
    </Flex>
  )
}

function Dashboard({ user }: { user: LoginInfo }) {
  // Silent: a failure shows in the page (with 重试) rather than as a toast as well.
  const { data: stats, error, isValidating, mutate } = useApi('statistics.all', undefined, { silent: true })
  const isAdmin = user.role === 'admin'

  const refresh = async () => {
    try {
      const fresh = await refreshStatistics()
      // The answer is the new cache: show it without asking again.
      await mutate(fresh, { revalidate: false })
      toastSuccess('统计已刷新')
    } catch (failure) {
      // request() has already shown the server's message.
      if (!(failure instanceof RequestError)) throw failure
    }
  }

  let team
  if (stats) {
    team = (
      <>
        <StatCards stats={stats} />
        <TeamCharts stats={stats} />
      </>
    )
  } else if (error) {
    team = <LoadFailed title="统计数据加载失败" error={error} retrying={isValidating} onRetry={() => void mutate()} />
  } else {
    team = (
      <div data-testid="dashboard-loading">
        <Flex vertical gap={16}>
          <StatCardsSkeleton />
          <TeamChartsSkeleton />
        </Flex>
      </div>
    )
  }

  return (
    <Flex vertical gap={16}>
      <GreetingBar user={user} computedAt={stats?.computedAt} onRefresh={isAdmin ? refresh : undefined} />
      <NoSiteUidAlert user={user} />
      {!isAdmin && <MyStats />}
      {team}
    </Flex>
  )
}

export default function HomePage() {
  const user = useCurrentUser()
  // The layout renders pages only once the user is known; the key starts afresh for another user.
  return user ? <Dashboard key={user.id} user={user} /> : null
}
