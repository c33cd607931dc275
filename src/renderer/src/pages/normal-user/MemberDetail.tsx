/**
 * The member detail drawer of 保种员: the account (GET /user/{id}) with their records by status,
 * their seeding volume over the last 30 days (user-seeding-sta) and their seed records.
 */
import { useMemo } from 'react'
import { Card, Descriptions, Drawer, Empty, Flex, Skeleton, Space, Tag, Typography } from 'antd'
import type { SeedRecord, UserDetail } from '@shared/entities'
import { sortableFields } from '@shared/endpoints'
import { seedStatusColors, seedStatusLabels, seedStatusValues } from '@shared/enums'
import Chart from '@renderer/components/Chart'
import DataTable from '@renderer/components/DataTable'
import { HelpTitle } from '@renderer/components/WageBreakdownDrawer'
import { seedRecordColumns } from '@renderer/components/seedRecordColumns'
import { AccountStatusTag, RoleTag } from '@renderer/components/StatusTags'
import { useApi } from '@renderer/hooks/useApi'
import { pageSeed } from '@renderer/services/user'
import { formatBytes, formatCount, formatDateTime } from '@renderer/utils/format'
import { SEEDING_COUNT_HELP } from '@renderer/components/seedingCountHelp'
import { myDailyOption } from '../home/chartOptions'
import { usePalette } from '../home/palette'

// The member's records as 我的任务 shows them; when a record was assigned matters less here.
const recordColumns = seedRecordColumns(['downloaded', 'assignedAt'])
/** Room for every record column at their widths (a 1360 px window still shows the list behind). */
const DRAWER_WIDTH = 1040

function Account({ user }: { user: UserDetail }) {
  // The tags cover every record; 做种数 counts those seeding now, which no sum of tags gives.
  const records = seedStatusValues.reduce((sum, status) => sum + (user.byStatus[status] ?? 0), 0)
  return (
    <Descriptions size="small" column={2} bordered>
      <Descriptions.Item label="用户名">{user.username}</Descriptions.Item>
      <Descriptions.Item label="角色">
        <RoleTag role={user.role} />
      </Descriptions.Item>
      <Descriptions.Item label="站点 UID">{user.siteUid ?? '-'}</Descriptions.Item>
      <Descriptions.Item label="账号状态">
        <AccountStatusTag status={user.status} />
      </Descriptions.Item>
      <Descriptions.Item label={<HelpTitle title="做种数" help={SEEDING_COUNT_HELP} />}>{formatCount(user.seedingCount)}</Descriptions.Item>
      <Descriptions.Item label="做种体积">{formatBytes(user.seedingSize)}</Descriptions.Item>
      <Descriptions.Item label="已分配">{formatCount(user.assignedCount)}</Descriptions.Item>
      <Descriptions.Item label="加入时间">{formatDateTime(user.createdAt)}</Descriptions.Item>
      <Descriptions.Item label="最近登录">{formatDateTime(user.lastLoginAt)}</Descriptions.Item>
      <Descriptions.Item label="备注">{user.remark || '-'}</Descriptions.Item>
      <Descriptions.Item label="记录状态" span={2}>
        <Space size={[4, 4]} wrap data-testid="member-by-status">
          {seedStatusValues.map((status) => (
            <Tag key={status} color={seedStatusColors[status]}>
              {seedStatusLabels[status]} {formatCount(user.byStatus[status] ?? 0)}
            </Tag>
          ))}
          <Typography.Text type="secondary">共 {formatCount(records)} 条记录</Typography.Text>
        </Space>
      </Descriptions.Item>
    </Descriptions>
  )
}

function SeedingChart({ userId }: { userId: number }) {
  const { data, error } = useApi('statistics.user', { userId, days: 30 }, { silent: true })
  const palette = usePalette()
  const option = useMemo(() => (data ? myDailyOption(data.daily, palette) : null), [data, palette])
  if (error) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="做种统计加载失败" />
  if (!option) return <Skeleton active paragraph={{ rows: 5 }} title={false} />
  return <Chart option={option} height={260} ariaLabel="近 30 天做种量" />
}

export interface MemberDetailProps {
  userId: number | null
  onClose(): void
}

export default function MemberDetail({ userId, onClose }: MemberDetailProps) {
  const { data: user, error } = useApi(userId ? 'user.detail' : null, userId ? { id: userId } : undefined)
  const params = useMemo(() => ({ userId }), [userId])
  return (
    <Drawer
      open={userId !== null}
      onClose={onClose}
      size={DRAWER_WIDTH}
      title={user ? `保种员详情 · ${user.username}` : '保种员详情'}
      // No vertical padding on the scrolling body: a sticky header sticks inside the padding, and the
      // rows scrolled past would show through above it. The content carries the padding instead.
      styles={{ body: { paddingBlock: 0 } }}
      destroyOnHidden
    >
      {userId !== null && (
        <Flex vertical gap={16} style={{ paddingBlock: 24 }}>
          {user ? (
            <Account user={user} />
          ) : error ? (
            // The toast said why; without this the skeleton would stay until a retry succeeds.
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="账号信息加载失败" />
          ) : (
            <Skeleton active paragraph={{ rows: 4 }} />
          )}
          <Card size="small" title="近 30 天做种量">
            <SeedingChart userId={userId} />
          </Card>
          <DataTable<SeedRecord>
            tableKey="normalUser.seedRecords"
            title="做种记录"
            rowKey="id"
            columns={recordColumns}
            sortableFields={sortableFields.pageSeed}
            params={params}
            request={pageSeed}
          />
        </Flex>
      )}
    </Drawer>
  )
}
