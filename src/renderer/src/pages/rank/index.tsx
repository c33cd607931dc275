/**
 * 工资排行: the wage rank of a month (wages.rank). Without a chosen month the server answers with
 * its last computed month; the page says which month that is.
 */
import { useCallback, useMemo, useState } from 'react'
import { TrophyOutlined } from '@ant-design/icons'
import { DatePicker, Flex, Space, Typography } from 'antd'
import type { Dayjs } from 'dayjs'
import type { WageRankEntry } from '@shared/entities'
import DataTable, { type DataTableColumn, type DataTableRequest } from '@renderer/components/DataTable'
import { wageRank } from '@renderer/services/wages'
import { formatBytes } from '@renderer/utils/format'
import { amountCell } from '../salary'

export const RANK_TABLE_KEY = 'salary.rank'
export const PERIOD_FORMAT = 'YYYY-MM'

const MEDAL_COLORS: Record<number, { color: string; label: string }> = {
  1: { color: '#F5B301', label: '金牌' },
  2: { color: '#A7B1BC', label: '银牌' },
  3: { color: '#C8783C', label: '铜牌' },
}

export function RankCell({ rank }: { rank: number }) {
  const medal = MEDAL_COLORS[rank]
  if (!medal) return <span style={{ paddingInlineStart: 22 }}>{rank}</span>
  return (
    <Space size={6} aria-label={`第 ${rank} 名（${medal.label}）`} data-testid={`medal-${rank}`}>
      <TrophyOutlined style={{ color: medal.color, fontSize: 16 }} />
      <Typography.Text strong>{rank}</Typography.Text>
    </Space>
  )
}

const columns: DataTableColumn<WageRankEntry>[] = [
  { title: '排名', dataIndex: 'rank', width: 90, render: (rank: number) => <RankCell rank={rank} /> },
  { title: '保种员', dataIndex: 'username', width: 180, ellipsis: true },
  { title: '金额', dataIndex: 'amount', width: 160, align: 'right', render: amountCell },
  { title: '达标种子数', dataIndex: 'torrentCount', width: 110, align: 'right' },
  { title: '达标体积', dataIndex: 'totalSize', width: 120, align: 'right', render: (size: number) => formatBytes(size) },
]

export default function RankPage() {
  const [month, setMonth] = useState<Dayjs | null>(null)
  // The month the server answered for (the last computed one when none was chosen).
  const [shown, setShown] = useState<{ period: string | null } | null>(null)
  const params = useMemo(() => ({ period: month ? month.format(PERIOD_FORMAT) : undefined }), [month])
  const request = useCallback<DataTableRequest<WageRankEntry>>(async (tableParams, sort) => {
    const answer = await wageRank(tableParams, sort)
    if (answer.success) setShown({ period: answer.data[0]?.period ?? (tableParams.period as string | undefined) ?? null })
    return answer
  }, [])

  const caption = !shown
    ? null
    : shown.period
      ? `${shown.period} 月工资排行${month ? '' : '（最近一次计算的月份）'}`
      : month
        ? '该月尚未生成工资'
        : '尚未生成任何月份的工资'

  return (
    <DataTable<WageRankEntry>
      tableKey={RANK_TABLE_KEY}
      title={
        <Flex align="center" gap={12} wrap>
          <span>工资排行</span>
          {caption && (
            <Typography.Text type="secondary" style={{ fontWeight: 'normal', fontSize: 14 }} data-testid="rank-period">
              {caption}
            </Typography.Text>
          )}
        </Flex>
      }
      toolbar={
        <DatePicker
          picker="month"
          value={month}
          onChange={(value) => setMonth(value)}
          placeholder="最近计算的月份"
          allowClear
          aria-label="月份"
          style={{ width: 160 }}
        />
      }
      rowKey="userId"
      columns={columns}
      params={params}
      request={request}
    />
  )
}
