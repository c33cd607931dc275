/**
 * 工资排行: the wage rank of a month (wages.rank). Without a chosen month the server answers with
 * its last computed month; the page says which month that is and the month picker shows it. The
 * user's own row is marked, and 定位到我 finds it (scanning the rank in its own order) and shows
 * its page.
 */
import { useCallback, useMemo, useRef, useState, type HTMLAttributes } from 'react'
import { AimOutlined, TrophyOutlined } from '@ant-design/icons'
import { Button, DatePicker, Flex, Space, Tag, Typography, theme } from 'antd'
import dayjs, { type Dayjs } from 'dayjs'
import type { WageRankEntry } from '@shared/entities'
import DataTable, { type DataTableActions, type DataTableColumn, type DataTableRequest } from '@renderer/components/DataTable'
import { amountColumn, qualifiedColumns } from '@renderer/components/wageColumns'
import { wageRank } from '@renderer/services/wages'
import { useRememberedState } from '@renderer/hooks/useRememberedState'
import { useCurrentUser } from '@renderer/stores/user'
import { toastInfo } from '@renderer/utils/feedback'
import { monthTitle } from '@renderer/utils/format'
import NoWagesYet from '../salary-stats/NoWagesYet'
import { findRankPosition, RankReadFailed } from './findRankPosition'

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

/**
 * The rank's columns; each cell of the user's own row gets `ownBackground` (on the row alone it
 * would not reach the 排名 cell, which is fixed to the left edge and paints its own background).
 */
function rankColumns(ownId: number | undefined, ownBackground: string): DataTableColumn<WageRankEntry>[] {
  const columns: DataTableColumn<WageRankEntry>[] = [
    { title: '排名', dataIndex: 'rank', width: 90, render: (rank: number) => <RankCell rank={rank} /> },
    {
      title: '保种员',
      dataIndex: 'username',
      width: 180,
      ellipsis: true,
      render: (username: string, entry) =>
        entry.userId === ownId ? (
          <Space size={6}>
            <Typography.Text strong>{username}</Typography.Text>
            <Tag color="green">我</Tag>
          </Space>
        ) : (
          username
        ),
    },
    amountColumn<WageRankEntry>(),
    ...qualifiedColumns<WageRankEntry>(),
  ]
  return columns.map((column) => ({
    ...column,
    onCell: (entry: WageRankEntry) => (entry.userId === ownId ? { style: { background: ownBackground } } : {}),
  }))
}

/** No rank exists for a month that has not begun. */
const isFutureMonth = (day: Dayjs) => day.isAfter(dayjs(), 'month')

export default function RankPage() {
  const user = useCurrentUser()
  const { token } = theme.useToken()
  const table = useRef<DataTableActions>(null)
  // The month chosen (null: the last computed one) stays for the session, like the table's page.
  const [period, setPeriod] = useRememberedState<string | null>('rank.period', () => null)
  const month = useMemo(() => (period ? dayjs(period, PERIOD_FORMAT) : null), [period])
  const [finding, setFinding] = useState(false)
  // The month the server answered for (the last computed one when none was chosen).
  const [shown, setShown] = useState<{ period: string | null } | null>(null)
  const params = useMemo(() => ({ period: period ?? undefined }), [period])
  const columns = useMemo(() => rankColumns(user?.id, token.colorPrimaryBg), [user?.id, token.colorPrimaryBg])
  // The caption follows the last read asked for, as the table does: an answer that comes late (a month left meanwhile) or
  // a failed read must not leave a month's name over another month's rows (found by an outside tester).
  const lastRead = useRef(0)
  const request = useCallback<DataTableRequest<WageRankEntry>>(async (tableParams, sort) => {
    const read = ++lastRead.current
    const answer = await wageRank(tableParams, sort)
    if (read !== lastRead.current) return answer
    // A chosen month with no rows has no wages (the rank has no filters): said in the table, not 暂无数据.
    setShown(
      answer.success
        ? { period: answer.data[0]?.period ?? (answer.total > 0 ? (tableParams.period as string | undefined) : undefined) ?? null }
        : null,
    )
    return answer
  }, [])

  async function findMe() {
    if (!user || finding) return
    setFinding(true)
    try {
      const position = await findRankPosition(user.id, params.period ?? shown?.period ?? undefined)
      if (position === null) toastInfo('你不在该月的工资排行中')
      else table.current?.showRow(position)
    } catch (error) {
      // The failed read was toasted; "not in the rank" would be a false word about their wage.
      if (!(error instanceof RankReadFailed)) throw error
    } finally {
      setFinding(false)
    }
  }

  const caption = !shown
    ? null
    : shown.period
      ? `${monthTitle(shown.period)}工资排行${month ? '' : '（最近一次计算的月份）'}`
      : month
        ? '该月尚未生成工资'
        : '尚未生成任何月份的工资'

  return (
    <Flex vertical gap={16}>
      <DataTable<WageRankEntry>
        ref={table}
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
          <Space size={8}>
            <Button icon={<AimOutlined />} onClick={() => void findMe()} loading={finding} disabled={!shown?.period}>
              定位到我
            </Button>
            <DatePicker
              picker="month"
              // Until a month is chosen, the picker shows the month the server answered for.
              value={month ?? (shown?.period ? dayjs(shown.period, PERIOD_FORMAT) : null)}
              onChange={(value) => setPeriod(value ? value.format(PERIOD_FORMAT) : null)}
              disabledDate={isFutureMonth}
              placeholder="最近计算的月份"
              allowClear
              aria-label="月份"
              style={{ width: 160 }}
            />
          </Space>
        }
        rowKey="userId"
        // No month computed (or not the chosen one): why, in the table itself — not a second empty state above it.
        empty={
          shown && !shown.period ? (
            <div data-testid="rank-empty">
              <NoWagesYet description={month ? '该月尚未生成工资' : '尚未生成任何月份的工资'} />
            </div>
          ) : undefined
        }
        columns={columns}
        params={params}
        request={request}
        onRow={(entry) => (entry.userId === user?.id ? ({ 'data-testid': 'own-rank-row' } as HTMLAttributes<HTMLElement>) : {})}
      />
    </Flex>
  )
}
