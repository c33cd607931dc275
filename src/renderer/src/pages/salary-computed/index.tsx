/**
 * 工资计算 (admins): pick a month → 预览计算 (nothing saved; can take seconds) → per-member
 * results with the rule version, each opening its breakdown → 确认生成 (unpaid records of the
 * month replaced, paid ones kept) → the month's saved records → select → 标记已发放. Export the
 * month as .xlsx or .csv through main's save dialog.
 */
import { useMemo, useRef, useState } from 'react'
import { CalculatorOutlined, CheckCircleOutlined, DownloadOutlined, SaveOutlined } from '@ant-design/icons'
import { Alert, App, Button, Card, DatePicker, Flex, Space, Spin, Statistic, Table, Tag, Typography, type TableColumnsType } from 'antd'
import dayjs, { type Dayjs } from 'dayjs'
import type { WagePreviewEntry, WageRecord } from '@shared/entities'
import { sortableWageFields } from '@shared/endpoints'
import { WagePayment } from '@shared/enums'
import DataTable, { type DataTableActions, type DataTableColumn, type DataTableRequest } from '@renderer/components/DataTable'
import WageBreakdownDrawer, { PartialMonthTag, type BreakdownSource } from '@renderer/components/WageBreakdownDrawer'
import { amountColumn, qualifiedColumns, seedHoursColumns, wageRecordColumns } from '@renderer/components/wageColumns'
import { RequestError, toOrderBy, type TableSort } from '@renderer/services/request'
import { computeWages, exportWages, payWages, previewWages, wagePage, type WageExportFormat } from '@renderer/services/wages'
import { toastSuccess } from '@renderer/utils/feedback'
import { formatAmount } from '@renderer/utils/format'
import PayoutToSite from './payout/PayoutToSite'

export const PERIOD_FORMAT = 'YYYY-MM'
export const RECORDS_TABLE_KEY = 'salary.computed.records'

interface Preview {
  period: string
  ruleVersion: number
  list: WagePreviewEntry[]
}

/** The month before `now`, as the default choice (wages are computed for a finished month). */
export const lastMonth = (now: Dayjs = dayjs()) => now.subtract(1, 'month').startOf('month')

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

const recordColumns = wageRecordColumns({
  lead: {
    title: '保种员',
    dataIndex: 'username',
    width: 200,
    ellipsis: true,
    render: (name: string, record) => (
      <>
        {name}
        <PartialMonthTag partial={record.partial} />
      </>
    ),
  },
  amount: { defaultSortOrder: 'descend', sortDirections: ['descend', 'ascend', 'descend'] },
  afterPaidAt: { title: '发放人', dataIndex: 'paidBy', width: 110, render: (name: string | null) => name ?? '-' },
})

/** Cents added as integers: thousands of two-decimal amounts do not drift. */
const sumAmounts = (list: readonly WagePreviewEntry[]) => list.reduce((cents, entry) => cents + Math.round(entry.amount * 100), 0) / 100

/** The saved records come highest amount first, like the preview, until another sort is chosen. */
export const BY_AMOUNT: TableSort = { amount: 'descend' }
const isSorted = (sort: TableSort | undefined) => toOrderBy(sort) !== undefined
const savedRecordsPage: DataTableRequest<WageRecord> = (params, sort) => wagePage(params, isSorted(sort) ? sort : BY_AMOUNT)

export default function SalaryComputedPage() {
  const { modal } = App.useApp()
  const [month, setMonth] = useState<Dayjs>(() => lastMonth())
  const period = month.format(PERIOD_FORMAT)
  const [preview, setPreview] = useState<Preview | null>(null)
  const [previewing, setPreviewing] = useState(false)
  const [previewError, setPreviewError] = useState<string | null>(null)
  const [computing, setComputing] = useState(false)
  const [exporting, setExporting] = useState<WageExportFormat | null>(null)
  const [paying, setPaying] = useState(false)
  const [selected, setSelected] = useState<number[]>([])
  const [breakdown, setBreakdown] = useState<BreakdownSource | null>(null)
  const tableRef = useRef<DataTableActions>(null)
  const latestPreview = useRef(0)
  const params = useMemo(() => ({ period }), [period])
  const columns = useMemo<DataTableColumn<WageRecord>[]>(
    () => [
      ...recordColumns,
      {
        title: '明细',
        key: 'detail',
        width: 80,
        // In view however wide the row: it opens the breakdown.
        fixed: 'right',
        render: (_, record) => (
          <Button type="link" size="small" style={{ paddingInline: 0 }} onClick={() => setBreakdown({ kind: 'record', id: record.id })}>
            查看
          </Button>
        ),
      },
    ],
    [],
  )

  // The preview on screen belongs to the month picked; another month starts over.
  const currentPreview = preview?.period === period ? preview : null

  function changeMonth(value: Dayjs | null) {
    if (!value) return
    setMonth(value)
    setSelected([])
    setPreviewError(null)
  }

  async function runPreview() {
    const call = ++latestPreview.current
    setPreviewing(true)
    setPreviewError(null)
    try {
      const answer = await previewWages(period, undefined, { silent: true })
      if (call === latestPreview.current) setPreview({ period, ...answer })
    } catch (error) {
      if (call === latestPreview.current) setPreviewError(error instanceof RequestError ? error.msg : '预览失败')
    } finally {
      if (call === latestPreview.current) setPreviewing(false)
    }
  }

  function confirmCompute() {
    const list = currentPreview?.list ?? []
    const earning = list.filter((entry) => entry.amount > 0).length
    modal.confirm({
      title: `确认生成 ${period} 的工资？`,
      content: (
        <Flex vertical gap={8}>
          <Flex gap={32} data-testid="compute-summary">
            <Statistic title="人数" value={list.length} suffix="人" />
            <Statistic title="其中工资大于 0" value={earning} suffix="人" />
            <Statistic title="合计" value={formatAmount(sumAmounts(list))} suffix="魔力" />
          </Flex>
          <Typography.Paragraph style={{ marginBottom: 0 }}>
            将按规则 v{currentPreview?.ruleVersion ?? '-'} 为每位保种员保存一条 {period} 的工资记录（以上为预览结果）。本月
            <strong>未发放</strong>的记录会被替换，<strong>已发放</strong>的记录保持不变。
          </Typography.Paragraph>
        </Flex>
      ),
      okText: '确认生成',
      cancelText: '取消',
      onOk: async () => {
        setComputing(true)
        try {
          const result = await computeWages(period)
          toastSuccess(
            `已生成 ${result.saved} 条工资记录（规则 v${result.ruleVersion}）${result.keptPaid > 0 ? `，${result.keptPaid} 条已发放记录保持不变` : ''}`,
          )
          setSelected([])
          tableRef.current?.reload()
        } catch {
          // request() showed the server's message
        } finally {
          setComputing(false)
        }
      },
    })
  }

  function confirmPay() {
    const ids = [...selected]
    modal.confirm({
      title: `确认将选中的 ${ids.length} 条工资标记为已发放？`,
      content: '标记后这些记录不会再被重新计算替换。已发放的记录不会重复发放。',
      okText: '标记已发放',
      cancelText: '取消',
      onOk: async () => {
        setPaying(true)
        try {
          const result = await payWages(ids)
          toastSuccess(`已发放 ${result.paid} 条${result.alreadyPaid > 0 ? `，${result.alreadyPaid} 条此前已发放` : ''}`)
          setSelected([])
          tableRef.current?.reload()
        } catch {
          // toasted by request()
        } finally {
          setPaying(false)
        }
      },
    })
  }

  async function runExport(format: WageExportFormat) {
    setExporting(format)
    try {
      const result = await exportWages(period, format)
      if (result.saved) toastSuccess(`已保存 ${result.fileName}`)
    } catch {
      // toasted by request()
    } finally {
      setExporting(null)
    }
  }

  const totalAmount = sumAmounts(currentPreview?.list ?? [])
  const below = currentPreview?.list.filter((entry) => entry.belowMinimum).length ?? 0

  return (
    <Flex vertical gap={16}>
      <Card size="small">
        <Flex align="center" gap={12} wrap>
          <Typography.Text>月份</Typography.Text>
          <DatePicker
            picker="month"
            value={month}
            onChange={changeMonth}
            allowClear={false}
            disabledDate={(date) => date.isAfter(dayjs(), 'month')}
            aria-label="月份"
            style={{ width: 160 }}
          />
          <Button type="primary" icon={<CalculatorOutlined />} loading={previewing} onClick={() => void runPreview()}>
            预览计算
          </Button>
          <Button icon={<SaveOutlined />} disabled={!currentPreview || previewing} loading={computing} onClick={confirmCompute}>
            确认生成
          </Button>
          <Typography.Text type="secondary">预览不会保存任何数据；确认生成后才写入工资记录。</Typography.Text>
        </Flex>
      </Card>

      <Card size="small" title={`${period} 预览结果`} data-testid="wage-preview">
        <Spin spinning={previewing} description="正在计算…" size="large">
          {previewError ? (
            <Alert type="error" showIcon title={previewError} />
          ) : !currentPreview ? (
            <Flex justify="center" style={{ padding: previewing ? 48 : 16 }}>
              <Typography.Text type="secondary">选择月份后点击「预览计算」，查看每位保种员的工资（不会保存）。</Typography.Text>
            </Flex>
          ) : (
            <Flex vertical gap={12}>
              <Flex gap={32} wrap>
                <Statistic title="规则版本" value={`v${currentPreview.ruleVersion}`} data-testid="preview-rule-version" />
                <Statistic title="保种员" value={currentPreview.list.length} />
                <Statistic title="工资总额" value={formatAmount(totalAmount)} suffix="魔力" />
                <Statistic title="低于最低要求" value={below} />
              </Flex>
              <Table<WagePreviewEntry>
                size="middle"
                rowKey="userId"
                sticky
                columns={previewColumns}
                dataSource={currentPreview.list}
                scroll={{ x: 830 }}
                onRow={(entry) => ({
                  onClick: () => setBreakdown({ kind: 'preview', period, userId: entry.userId }),
                  style: { cursor: 'pointer' },
                })}
                pagination={{
                  defaultPageSize: 20,
                  showSizeChanger: true,
                  pageSizeOptions: ['20', '50', '100', '200'],
                  showTotal: (total) => `共 ${total} 条`,
                }}
              />
            </Flex>
          )}
        </Spin>
      </Card>

      <DataTable<WageRecord>
        ref={tableRef}
        tableKey={RECORDS_TABLE_KEY}
        title={`${period} 已生成的工资`}
        rowKey="id"
        columns={columns}
        sortableFields={sortableWageFields.wagesPage}
        params={params}
        request={savedRecordsPage}
        rowSelection={{
          selectedRowKeys: selected,
          preserveSelectedRowKeys: true,
          onChange: (keys) => setSelected(keys as number[]),
          getCheckboxProps: (record) => ({ disabled: record.payment === WagePayment.Paid, 'aria-label': `选择 ${record.username}` }),
        }}
        toolbar={
          <Space size={8}>
            <Button type="primary" icon={<CheckCircleOutlined />} disabled={selected.length === 0} loading={paying} onClick={confirmPay}>
              标记已发放{selected.length > 0 ? ` (${selected.length})` : ''}
            </Button>
            <PayoutToSite period={period} selected={selected} onPaid={() => (setSelected([]), tableRef.current?.reload())} />
            <Button
              icon={<DownloadOutlined />}
              loading={exporting === 'xlsx'}
              disabled={exporting !== null}
              onClick={() => void runExport('xlsx')}
            >
              导出 Excel
            </Button>
            <Button
              icon={<DownloadOutlined />}
              loading={exporting === 'csv'}
              disabled={exporting !== null}
              onClick={() => void runExport('csv')}
            >
              导出 CSV
            </Button>
          </Space>
        }
      />
      <WageBreakdownDrawer source={breakdown} onClose={() => setBreakdown(null)} />
    </Flex>
  )
}
