/**
 * 预览计算: every member's wage for the month as the rules would compute it now, nothing saved.
 * The hook holds the preview asked for; the card shows it, each row opening its breakdown.
 */
import { Alert, Card, Flex, Spin, Statistic, Table, Tag, Typography, type TableColumnsType } from 'antd'
import type { WagePreviewEntry } from '@shared/entities'
import { HelpTitle, PartialMonthTag } from '@renderer/components/WageBreakdownDrawer'
import { useAskedLoad } from '@renderer/hooks/useApi'
import { amountColumn, qualifiedColumns, seedHoursColumns } from '@renderer/components/wageColumns'
import { RequestError } from '@renderer/services/request'
import { previewWages } from '@renderer/services/wages'
import { formatAmount, formatCount } from '@renderer/utils/format'
import { keyboardOpen } from '@renderer/utils/keyboardOpen'

export interface WagePreview {
  period: string
  ruleVersion: number
  list: WagePreviewEntry[]
}

/**
 * Who the preview computes (the server's wage members): every account tied to a site UID and not deleted —
 * more than the dashboard's 保种员人数, which counts members in good standing only.
 */
export const PREVIEW_MEMBERS_HELP =
  '绑定了站点 UID 且未删除的账号都参与计算：含已封禁的保种员（工资为 0）和绑定了站点 UID 的管理员。首页的「保种员人数」只计状态正常的保种员。'

/** Cents added as integers: thousands of two-decimal amounts do not drift. */
export const sumAmounts = (list: readonly WagePreviewEntry[]) =>
  list.reduce((cents, entry) => cents + Math.round(entry.amount * 100), 0) / 100

const previewColumns: TableColumnsType<WagePreviewEntry> = [
  {
    title: '保种员',
    dataIndex: 'username',
    width: 180,
    ellipsis: true,
    sorter: (a, b) => (a.username < b.username ? -1 : a.username > b.username ? 1 : 0),
  },
  amountColumn<WagePreviewEntry>({ sorter: (a, b) => a.amount - b.amount, defaultSortOrder: 'descend' }),
  ...qualifiedColumns<WagePreviewEntry>(true),
  ...seedHoursColumns<WagePreviewEntry>({ average: true, total: true }),
  {
    title: '说明',
    dataIndex: 'belowMinimum',
    width: 130,
    filters: [{ text: '低于最低要求', value: true }],
    onFilter: (value, entry) => entry.belowMinimum === value,
    render: (below: boolean, entry) => (
      <>
        {below ? <Tag color="red">低于最低要求</Tag> : null}
        <PartialMonthTag partial={entry.partial} />
      </>
    ),
  },
]

export interface WagePreviewState {
  /** The preview of `period`, once asked for (another month's is not shown). */
  preview: WagePreview | null
  previewing: boolean
  error: string | null
  /** Computes the month anew (can take seconds). */
  run(): void
}

/**
 * 预览计算 is a read the admin asks for: it runs the whole month's computation, so it is read on the
 * button only (never on mount or focus), and each click computes again with the data of that moment.
 */
export function useWagePreview(period: string): WagePreviewState {
  const { asked, ask, data, error, loading } = useAskedLoad(
    'wages.preview',
    async (month: string): Promise<WagePreview> => ({ period: month, ...(await previewWages(month, undefined, { silent: true })) }),
    // While the month is computed again, the last preview stays under the spinner.
    { keepPreviousData: true },
  )
  // The preview on screen belongs to the month picked; another month starts over. A run that failed leaves none: the
  // last one's figures are not what 确认生成 would save now (the rules or data changed since).
  const failed = asked === period && error
  return {
    preview: data?.period === period && !failed ? data : null,
    previewing: loading,
    error: failed ? (error instanceof RequestError ? error.msg : '预览失败') : null,
    run: () => ask(period),
  }
}

export interface WagePreviewCardProps {
  period: string
  state: WagePreviewState
  /** A row was clicked: open that member's breakdown. */
  onOpen(userId: number): void
}

export default function WagePreviewCard({ period, state, onOpen }: WagePreviewCardProps) {
  const { preview, previewing, error } = state
  const totalAmount = sumAmounts(preview?.list ?? [])
  const below = preview?.list.filter((entry) => entry.belowMinimum).length ?? 0

  return (
    <Card size="small" title={`${period} 预览结果`} data-testid="wage-preview">
      <Spin spinning={previewing} description="正在计算…" size="large">
        {error ? (
          <Alert type="error" showIcon title={error} />
        ) : !preview ? (
          <Flex justify="center" style={{ padding: previewing ? 48 : 16 }}>
            <Typography.Text type="secondary">选择月份后点击「预览计算」，查看每位保种员的工资（不会保存）。</Typography.Text>
          </Flex>
        ) : (
          <Flex vertical gap={12}>
            <Flex gap={32} wrap>
              <Statistic title="规则版本" value={`v${preview.ruleVersion}`} data-testid="preview-rule-version" />
              <Statistic
                title={<HelpTitle title="计算人数" help={PREVIEW_MEMBERS_HELP} />}
                value={preview.list.length}
                data-testid="preview-members"
              />
              <Statistic title="工资总额" value={formatAmount(totalAmount)} suffix="魔力" />
              <Statistic title="低于最低要求" value={below} />
            </Flex>
            <Table<WagePreviewEntry>
              size="middle"
              rowKey="userId"
              sticky
              columns={previewColumns}
              dataSource={preview.list}
              scroll={{ x: 830 }}
              onRow={(entry) => ({
                onClick: () => onOpen(entry.userId),
                style: { cursor: 'pointer' },
                ...keyboardOpen(() => onOpen(entry.userId)),
              })}
              pagination={{
                defaultPageSize: 20,
                showSizeChanger: true,
                pageSizeOptions: ['20', '50', '100', '200'],
                showTotal: (total) => `共 ${formatCount(total)} 条`,
              }}
            />
          </Flex>
        )}
      </Spin>
    </Card>
  )
}
