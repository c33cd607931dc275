/**
 * The columns of the wage tables: 我的工资 and 工资计算 list saved records the same way, and
 * 工资计算's preview and 工资排行 show the same figures. One home, so a width or a cell changes
 * everywhere at once.
 */
import { Tooltip, Typography } from 'antd'
import type { WagePreviewEntry, WageRecord } from '@shared/entities'
import { wagePaymentLabels } from '@shared/enums'
import type { DataTableColumn } from '@renderer/components/DataTable'
import { columnKey } from '@renderer/components/DataTable/columns'
import {
  AVERAGE_HOURS_HELP,
  PaymentTag,
  TOTAL_HOURS_HELP,
  averageSeedHours,
  figureCell,
  formatSeedHours,
} from '@renderer/components/WageBreakdownDrawer'
import { enumOptions } from '@renderer/utils/enumOptions'
import { dateTimeColumn } from '@renderer/components/dateTimeColumn'
import { formatAmount, formatBytes, formatCount, formatDateTime, formatHours } from '@renderer/utils/format'

type Figures = Pick<WageRecord, 'amount' | 'torrentCount' | 'totalSize'>

export const amountCell = (amount: number) => (
  <Typography.Text strong>
    {formatAmount(amount)} <Typography.Text type="secondary">魔力</Typography.Text>
  </Typography.Text>
)

/** 金额; `extra` adds a page's sort settings. 150 px: a six-figure amount with 魔力 in the widest UI font. */
export function amountColumn<T extends Figures>(extra: Partial<DataTableColumn<T>> = {}): DataTableColumn<T> {
  return { title: '金额', dataIndex: 'amount', width: 150, align: 'right', onCell: figureCell, render: amountCell, ...extra }
}

/** 达标种子数 and 达标体积; `sortable` sorts them in the browser (the preview is one list). */
export function qualifiedColumns<T extends Figures>(sortable = false): DataTableColumn<T>[] {
  return [
    {
      title: '达标种子数',
      dataIndex: 'torrentCount',
      width: 110,
      align: 'right',
      onCell: figureCell,
      render: (count: number) => formatCount(count),
      sorter: sortable ? (a, b) => a.torrentCount - b.torrentCount : undefined,
    },
    {
      title: '达标体积',
      dataIndex: 'totalSize',
      width: 120,
      align: 'right',
      onCell: figureCell,
      render: (size: number) => formatBytes(size),
      sorter: sortable ? (a, b) => a.totalSize - b.totalSize : undefined,
    },
  ]
}

/** 平均做种时长 (what the formula uses) and 累计做种时长 (in days) of a wage record or preview entry. */
export function seedHoursColumns<T extends WageRecord | WagePreviewEntry>(
  sortable: { average?: boolean; total?: boolean } = {},
): DataTableColumn<T>[] {
  return [
    {
      title: '平均做种时长',
      onHeaderCell: () => ({ title: AVERAGE_HOURS_HELP }),
      key: 'avgSeedHours',
      width: 130,
      align: 'right',
      onCell: figureCell,
      render: (_, wage) => formatSeedHours(averageSeedHours(wage)),
      sorter: sortable.average ? (a, b) => averageSeedHours(a) - averageSeedHours(b) : undefined,
    },
    {
      title: '累计做种时长',
      onHeaderCell: () => ({ title: TOTAL_HOURS_HELP }),
      dataIndex: 'seedHours',
      width: 150,
      align: 'right',
      onCell: figureCell,
      render: (hours: number) => formatHours(hours),
      sorter: sortable.total ? (a, b) => a.seedHours - b.seedHours : undefined,
    },
  ]
}

export interface WageRecordColumnsOptions {
  /** The first column: whose record (工资计算) or which month (我的工资). */
  lead: DataTableColumn<WageRecord>
  /** The page's sort settings of 金额. */
  amount?: Partial<DataTableColumn<WageRecord>>
  /** After 发放时间: who paid (工资计算) or whether it reached the site (我的工资). */
  afterPaidAt: DataTableColumn<WageRecord>
  /**
   * Columns (by key) that start hidden, one click away in the column settings, so the page's table fits a
   * 1280 px window (test/layout TABLE_WIDTH_AT_1280). 计算时间 always starts hidden.
   */
  hidden?: readonly string[]
  /**
   * Where the payment columns go: at the end (default); 发放状态 right after 金额 (`'status'`: 工资计算, where the
   * month is paid — in view beside the fixed 明细 column); or 发放状态, 发放时间 and `afterPaidAt` right after
   * 金额 (`'all'`: 我的工资, where a member looks for whether and when they were paid — in view at 1280 px).
   */
  paymentAfterAmount?: false | 'status' | 'all'
}

/** The columns of a saved-records table (wages.page). */
export function wageRecordColumns({
  lead,
  amount,
  afterPaidAt,
  hidden = [],
  paymentAfterAmount = false,
}: WageRecordColumnsOptions): DataTableColumn<WageRecord>[] {
  const payment: DataTableColumn<WageRecord> = {
    title: '发放状态',
    dataIndex: 'payment',
    width: 80,
    search: { type: 'select', options: enumOptions(wagePaymentLabels) },
    // When and by whom on hover, also where 发放时间 and 发放人 start hidden (工资计算).
    render: (_, record) =>
      record.paidAt ? (
        <Tooltip
          title={
            <>
              <div>发放时间：{formatDateTime(record.paidAt)}</div>
              {record.paidBy && <div>发放人：{record.paidBy}</div>}
            </>
          }
        >
          <span>
            <PaymentTag payment={record.payment} />
          </span>
        </Tooltip>
      ) : (
        <PaymentTag payment={record.payment} />
      ),
  }
  const paidAt = dateTimeColumn<WageRecord>('发放时间', 'paidAt')
  const figures = [...qualifiedColumns<WageRecord>(), ...seedHoursColumns<WageRecord>()]
  const paymentColumns =
    paymentAfterAmount === 'all'
      ? [payment, paidAt, afterPaidAt, ...figures]
      : paymentAfterAmount === 'status'
        ? [payment, ...figures, paidAt, afterPaidAt]
        : [...figures, payment, paidAt, afterPaidAt]
  const columns: DataTableColumn<WageRecord>[] = [
    lead,
    amountColumn<WageRecord>(amount),
    ...paymentColumns,
    { title: '规则版本', dataIndex: 'ruleVersion', width: 90, render: (version: number) => `v${version}` },
  ]
  return [
    ...columns.map((column) => (hidden.includes(columnKey(column)) ? { ...column, hiddenByDefault: true } : column)),
    dateTimeColumn<WageRecord>('计算时间', 'computedAt', { hiddenByDefault: true }),
  ]
}
