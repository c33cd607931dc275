/**
 * The month's saved wage records: select → 标记已发放 or 发放到站点; export the month as .xlsx or
 * .csv through main's save dialog. Highest amount first, like the preview, until another sort is chosen.
 * A month with no records yet offers neither export nor 发放到站点 (each would only answer with an error),
 * and says why on hover.
 */
import { useCallback, useImperativeHandle, useMemo, useRef, useState, type Ref } from 'react'
import { CheckCircleOutlined, DownloadOutlined } from '@ant-design/icons'
import { App, Button, Empty, Space } from 'antd'
import type { WageRecord } from '@shared/entities'
import { sortableWageFields } from '@shared/endpoints'
import { WagePayment } from '@shared/enums'
import DataTable, {
  type DataTableActions,
  type DataTableColumn,
  type DataTableRequest,
  type LoadedPage,
} from '@renderer/components/DataTable'
import DisabledReason from '@renderer/components/DisabledReason'
import { PartialMonthTag } from '@renderer/components/WageBreakdownDrawer'
import { wageRecordColumns } from '@renderer/components/wageColumns'
import { CONFLICT_CODE, RequestError, toOrderBy, type TableSort } from '@renderer/services/request'
import { exportWages, payWages, wagePage, type WageExportFormat } from '@renderer/services/wages'
import { toastSuccess } from '@renderer/utils/feedback'
import PayoutToSite from './payout/PayoutToSite'
import { formatCount } from '@renderer/utils/format'

export const RECORDS_TABLE_KEY = 'salary.computed.records'

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
  // What the month is checked by: who, how much, paid or not, and the figures behind the amount — 902 px with the
  // selection and 明细, in what a 1280 px window gives the table (test/layout TABLE_WIDTH_AT_1280). 发放时间 and
  // 发放人 show on hovering 发放状态; they, 累计做种时长 and 规则版本 are one click away in 列设置.
  hidden: ['seedHours', 'paidAt', 'paidBy', 'ruleVersion'],
  paymentAfterAmount: 'status',
})

export const BY_AMOUNT: TableSort = { amount: 'descend' }
const isSorted = (sort: TableSort | undefined) => toOrderBy(sort) !== undefined
const savedRecordsPage: DataTableRequest<WageRecord> = (params, sort) => wagePage(params, isSorted(sort) ? sort : BY_AMOUNT)

export interface SavedWagesActions {
  /** The records changed (the month was generated anew): read them again, nothing selected. */
  reload(): void
}

export interface SavedWagesProps {
  period: string
  /** 查看 on a record: open its breakdown. */
  onOpen(wageId: number): void
  ref?: Ref<SavedWagesActions>
}

export default function SavedWages({ period, onOpen, ref }: SavedWagesProps) {
  const { modal } = App.useApp()
  const table = useRef<DataTableActions>(null)
  // A selection belongs to its month: another month starts with none.
  // With the amounts the admin saw: 标记已发放 is refused when the month was generated anew since (the server compares).
  const [selection, setSelection] = useState<{ period: string; ids: number[]; amounts: ReadonlyMap<number, number> }>({
    period,
    ids: [],
    amounts: new Map(),
  })
  if (selection.period !== period) setSelection({ period, ids: [], amounts: new Map() })
  const selected = selection.period === period ? selection.ids : []
  const select = (ids: number[], rows: readonly (WageRecord | undefined)[] = []) =>
    setSelection((previous) => {
      const amounts = new Map(previous.period === period ? previous.amounts : [])
      for (const row of rows) if (row) amounts.set(row.id, row.amount)
      return { period, ids, amounts }
    })
  const [paying, setPaying] = useState(false)
  const [exporting, setExporting] = useState<WageExportFormat | null>(null)
  const params = useMemo(() => ({ period }), [period])
  // Whether a month has records, as far as its pages tell: a total under no search is the month's, a filtered
  // page with rows proves some; a filter that matches nothing says nothing about the month. Unknown: enabled.
  const [records, setRecords] = useState<{ period: string; any: boolean } | null>(null)
  const onLoad = useCallback(({ total, params: asked, search }: LoadedPage) => {
    if (total === 0 && Object.keys(search).length > 0) return
    const known = { period: String(asked.period), any: total > 0 }
    setRecords((previous) => (previous?.period === known.period && previous.any === known.any ? previous : known))
  }, [])
  const noRecords = records?.period === period && !records.any

  function reload() {
    select([])
    table.current?.reload()
  }
  useImperativeHandle(ref, () => ({ reload }))

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
          <Button type="link" size="small" style={{ paddingInline: 0 }} onClick={() => onOpen(record.id)}>
            查看
          </Button>
        ),
      },
    ],
    [onOpen],
  )

  function confirmPay() {
    const ids = [...selected]
    const amounts = ids.map((id) => selection.amounts.get(id))
    modal.confirm({
      title: `确认将选中的 ${ids.length} 条工资标记为已发放？`,
      content: '标记后这些记录不会再被重新计算替换。已发放的记录不会重复发放。',
      okText: '标记已发放',
      cancelText: '取消',
      onOk: async () => {
        setPaying(true)
        try {
          const result = await payWages(ids, amounts.every((a) => a !== undefined) ? amounts : undefined)
          toastSuccess(
            `已将 ${formatCount(result.paid)} 条标记为已发放${result.alreadyPaid > 0 ? `，${formatCount(result.alreadyPaid)} 条此前已发放` : ''}`,
          )
          reload()
        } catch (error) {
          // toasted by request(); amounts changed since (409): show the month as it is now
          if (error instanceof RequestError && error.code === CONFLICT_CODE) reload()
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

  const exportButton = (format: WageExportFormat, label: string) => (
    <DisabledReason reason={noRecords ? `${period} 还没有生成工资，没有可导出的记录` : null}>
      <Button
        icon={<DownloadOutlined />}
        loading={exporting === format}
        disabled={noRecords || exporting !== null}
        onClick={() => void runExport(format)}
      >
        {label}
      </Button>
    </DisabledReason>
  )

  return (
    <DataTable<WageRecord>
      ref={table}
      tableKey={RECORDS_TABLE_KEY}
      title={`${period} 已生成的工资`}
      rowKey="id"
      columns={columns}
      sortableFields={sortableWageFields.wagesPage}
      params={params}
      request={savedRecordsPage}
      onLoad={onLoad}
      // A month not generated yet says what to do, rather than 暂无数据 (a filter that matches nothing still says that).
      empty={(search) =>
        Object.keys(search).length === 0 ? (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={`${period} 还没有生成工资：先「预览计算」核对每位保种员的工资，再「确认生成」`}
            data-testid="saved-wages-empty"
          />
        ) : undefined
      }
      rowSelection={{
        selectedRowKeys: selected,
        preserveSelectedRowKeys: true,
        onChange: (keys, rows) => select(keys as number[], rows),
        getCheckboxProps: (record) => ({ disabled: record.payment === WagePayment.Paid, 'aria-label': `选择 ${record.username}` }),
      }}
      toolbar={
        <Space size={8}>
          <Button type="primary" icon={<CheckCircleOutlined />} disabled={selected.length === 0} loading={paying} onClick={confirmPay}>
            标记已发放{selected.length > 0 ? `（${selected.length}）` : ''}
          </Button>
          <PayoutToSite
            period={period}
            selected={selected}
            onPaid={reload}
            disabledReason={noRecords ? `${period} 还没有生成工资，没有可发放的记录` : null}
          />
          {exportButton('xlsx', '导出 Excel')}
          {exportButton('csv', '导出 CSV')}
        </Space>
      }
    />
  )
}
