/**
 * The list table of every page: server-side paging, sorting and filtering through one `request`
 * function (use `pagedRequest`), a search form built from the columns, a toolbar with title,
 * refresh and column settings (remembered per `tableKey`), sticky header, total and page sizes,
 * a skeleton until the first page arrives and an empty state.
 */
import { useCallback, useEffect, useImperativeHandle, useMemo, type ReactNode, type Ref } from 'react'
import { ReloadOutlined } from '@ant-design/icons'
import { Button, Card, Empty, Flex, Skeleton, Space, Table, Tooltip, Typography, type TableProps } from 'antd'
import { READ_ONCE, useLoad } from '@renderer/hooks/useApi'
import { useRememberedState } from '@renderer/hooks/useRememberedState'
import type { SortOrder, TableData, TableSort, TableSorter } from '@renderer/services/request'
import { formatCount } from '@renderer/utils/format'
import ColumnSettings from './ColumnSettings'
import SearchForm, { type SearchValues } from './SearchForm'
import { useHiddenColumns } from './columnSettings'
import { columnKey, searchItems } from './columns'
import type { ColumnFilters, DataTableActions, DataTableColumn, DataTableRequest, LoadedPage } from './types'

export type { ColumnFilters, DataTableActions, DataTableColumn, DataTableRequest, LoadedPage, SearchField } from './types'

export const PAGE_SIZE_OPTIONS = [20, 50, 100, 200] as const

/** The empty state of a search or filter that matches no row. */
export const NO_MATCH = '没有符合筛选条件的记录，请调整筛选条件'

/** The key of a row-actions column (操作), fixed to the right edge. */
export const ACTIONS_KEY = 'actions'

type PassThroughProps<T> = Omit<TableProps<T>, 'columns' | 'dataSource' | 'pagination' | 'onChange' | 'loading' | 'title'>

export interface DataTableProps<T> extends PassThroughProps<T> {
  /** Names the saved column settings; unique per table. */
  tableKey: string
  title?: ReactNode
  columns: DataTableColumn<T>[]
  request: DataTableRequest<T>
  /** Fixed filters sent with every page (e.g. the user's id); a change reloads from page 1. */
  params?: Record<string, unknown>
  /** Columns the endpoint may be sorted by (e.g. `sortableFields.pageSeed`); they get `sorter`. */
  sortableFields?: readonly string[]
  /** Search form values to start with (e.g. from the URL). */
  initialSearch?: SearchValues
  defaultPageSize?: (typeof PAGE_SIZE_OPTIONS)[number]
  /** Extra toolbar buttons, left of refresh and column settings. */
  toolbar?: ReactNode
  /**
   * Shown in the table instead of 暂无数据 when a page loaded with no rows (e.g. why there are none); as a
   * function, of the search the rows were asked with (undefined: 暂无数据).
   */
  empty?: ReactNode | ((search: SearchValues) => ReactNode)
  /**
   * Told of each page that loaded (not of a failed read): its total under what it was asked with — e.g. so a
   * toolbar can tell a month with no records at all (no search, total 0) from a filter that matches nothing.
   */
  onLoad?: (page: LoadedPage) => void
  ref?: Ref<DataTableActions>
}

interface Query {
  /** The fixed params, as JSON (compared by value). */
  paramsKey: string
  current: number
  pageSize: number
  search: SearchValues
  sort?: TableSort
  filters: ColumnFilters
}

const FAILED: TableData<never> = { data: [], total: 0, success: false }

/** A failed page's next read (config/swr.ts errorRetryInterval, the same 5 s). */
const RETRY_FAILED_MS = 5000

/** Pages are read when asked (a new query, 刷新, `reload()`), never behind the user's back — a failed one again. */
const PAGE_READS = { ...READ_ONCE, dedupingInterval: 0, keepPreviousData: true }

/** antd's sorter without its column objects: the query is a cache key, compared by value. */
const plainSort = (sorter: TableSorter | TableSorter[]): TableSort =>
  Array.isArray(sorter)
    ? (sorter.map(plainSort) as TableSorter[])
    : { field: sorter.field, columnKey: sorter.columnKey, order: sorter.order }

/**
 * A column's order under the table's sort, so a remembered sort shows in its header. Undefined until the
 * user first sorts: the column's `defaultSortOrder` (the server's own order) shows meanwhile.
 */
function sortOrderOf(sort: TableSort | undefined, key: string): SortOrder | undefined {
  if (sort === undefined) return undefined
  const sorters = (Array.isArray(sort) ? sort : [sort]) as TableSorter[]
  return sorters.find((sorter) => sorter.columnKey === key)?.order ?? null
}

export default function DataTable<T extends object>({
  tableKey,
  title,
  columns,
  request,
  params,
  sortableFields,
  initialSearch,
  defaultPageSize = 20,
  toolbar,
  empty,
  onLoad,
  ref,
  ...tableProps
}: DataTableProps<T>) {
  // Fixed params by value: `params={{ userId }}` is a new object on every render.
  const paramsKey = JSON.stringify(params ?? {})
  // Another screen and back shows the page, sort and search as they were left — unless the fixed params
  // differ (another member's records) or the URL brings its own search.
  const searchGiven = Object.keys(initialSearch ?? {}).length > 0
  const [query, setQuery] = useRememberedState<Query>(
    `table:${tableKey}`,
    () => ({ paramsKey, current: 1, pageSize: defaultPageSize, search: initialSearch ?? {}, filters: {} }),
    (saved) => saved.paramsKey === paramsKey && !searchGiven,
  )
  if (query.paramsKey !== paramsKey) setQuery({ ...query, paramsKey, current: 1 })
  // Each query is read once; while the next one loads, the last answer stays on screen.
  const {
    data: answered,
    isValidating: loading,
    mutate,
  } = useLoad(
    `table:${tableKey}`,
    query,
    async (asked: Query) => {
      const { paramsKey: fixed, current, pageSize, search, sort, filters } = asked
      const answer = await request(
        { ...(JSON.parse(fixed) as Record<string, unknown>), ...search, current, pageSize },
        sort,
        filters,
      ).catch(() => FAILED)
      return { asked, answer }
    },
    PAGE_READS,
  )
  const result: TableData<T> | null = answered?.answer ?? null
  const reload = useCallback(() => void mutate(), [mutate])
  // A page that failed (the server down, unreachable) is read again every 5 s and when the window comes back to the
  // front, until it answers: no rows move behind the user's back, as none are shown.
  const failed = answered !== undefined && !answered.answer.success
  useEffect(() => {
    if (!failed) return
    const again = () => {
      if (document.visibilityState === 'visible') void mutate()
    }
    const timer = setInterval(again, RETRY_FAILED_MS)
    window.addEventListener('focus', again)
    document.addEventListener('visibilitychange', again)
    return () => {
      clearInterval(timer)
      window.removeEventListener('focus', again)
      document.removeEventListener('visibilitychange', again)
    }
  }, [failed, mutate])
  const showRow = useCallback(
    (index: number) => setQuery((previous) => ({ ...previous, current: Math.floor(Math.max(0, index) / previous.pageSize) + 1 })),
    [setQuery],
  )
  useImperativeHandle(ref, () => ({ reload, showRow }), [reload, showRow])
  useEffect(() => {
    if (!answered?.answer.success) return
    const { paramsKey: fixed, search } = answered.asked
    onLoad?.({ total: answered.answer.total, params: JSON.parse(fixed) as Record<string, unknown>, search })
  }, [answered, onLoad])

  // Rows went away (e.g. the last page emptied): show the new last page instead of nothing.
  if (answered && answered.answer.success && answered.answer.data.length === 0 && query.current > 1) {
    const lastPage = Math.max(1, Math.ceil(answered.answer.total / query.pageSize))
    if (query.current > lastPage && JSON.stringify(answered.asked) === JSON.stringify(query)) setQuery({ ...query, current: lastPage })
  }

  const [hidden, setHidden] = useHiddenColumns(
    tableKey,
    useMemo(() => columns.filter((column) => column.hiddenByDefault).map((column) => columnKey(column)), [columns]),
  )
  const tableColumns = useMemo(
    () =>
      columns
        .filter((column) => !hidden.includes(columnKey(column)))
        .map(({ search: _search, hiddenByDefault: _hidden, ...column }, index) => {
          const key = columnKey(column)
          const sorter = column.sorter ?? (sortableFields?.includes(key) ? true : undefined)
          const sortOrder = sorter ? sortOrderOf(query.sort, key) : undefined
          // The first column names the row and the 操作 column (key `actions`) acts on it: both stay in
          // view when a narrow window scrolls the table sideways.
          const fixed = column.fixed ?? (index === 0 ? ('left' as const) : key === ACTIONS_KEY ? ('right' as const) : undefined)
          return { ...column, key, sorter, fixed, ...(sortOrder !== undefined && { sortOrder }) }
        }),
    [columns, hidden, sortableFields, query.sort],
  )
  const items = useMemo(() => searchItems(columns), [columns])
  // With every width known, the table scrolls sideways only below their sum (so names can
  // ellipsis at their width); otherwise each column takes what its content needs.
  const scrollX = tableColumns.every((column) => typeof column.width === 'number')
    ? tableColumns.reduce((sum, column) => sum + (column.width as number), 0)
    : 'max-content'

  const onTableChange: TableProps<T>['onChange'] = (pagination, filters, sorter, extra) => {
    setQuery((previous) => ({
      ...previous,
      // A new sort or filter starts again at page 1; paging keeps them.
      current: extra.action === 'paginate' ? (pagination.current ?? 1) : 1,
      pageSize: pagination.pageSize ?? previous.pageSize,
      sort: plainSort(sorter as TableSorter | TableSorter[]),
      filters,
    }))
  }

  const emptyNote = typeof empty === 'function' ? empty(answered?.asked.search ?? query.search) : empty
  // No rows under a search or a column filter: say so, rather than 暂无数据 (as if there were nothing at all).
  const asked = answered?.asked ?? query
  const filtered =
    Object.keys(asked.search).length > 0 || Object.values(asked.filters ?? {}).some((value) => value != null && value.length > 0)
  const emptyText =
    result?.success !== false && emptyNote !== undefined ? (
      emptyNote
    ) : (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={result?.success === false ? '加载失败，请点击刷新重试' : filtered ? NO_MATCH : '暂无数据'}
      />
    )

  return (
    <Flex vertical gap={16}>
      {items.length > 0 && (
        <Card size="small" styles={{ body: { paddingBottom: 0 } }}>
          <SearchForm
            items={items}
            initialValues={query.search}
            onSearch={(search) => {
              // 查询 with the search already shown reads again (rows may have come since): the same query is the same
              // cache key, which asked nothing (found by an outside tester).
              if (query.current === 1 && JSON.stringify(query.search) === JSON.stringify(search)) reload()
              else setQuery((previous) => ({ ...previous, current: 1, search }))
            }}
          />
        </Card>
      )}
      <Card size="small">
        <Flex justify="space-between" align="center" style={{ marginBottom: 12 }}>
          <Typography.Text strong style={{ fontSize: 16 }}>
            {title}
          </Typography.Text>
          <Space size={4}>
            {toolbar}
            <Tooltip title="刷新">
              <Button type="text" icon={<ReloadOutlined />} aria-label="刷新" onClick={reload} loading={loading && result !== null} />
            </Tooltip>
            <ColumnSettings
              columns={columns.map((column) => ({ key: columnKey(column), title: column.title }))}
              hidden={hidden}
              onChange={setHidden}
              onReset={() => setHidden(null)}
            />
          </Space>
        </Flex>
        {result === null ? (
          <div data-testid="data-table-skeleton">
            <Skeleton active title={false} paragraph={{ rows: 8 }} />
          </div>
        ) : (
          <Table<T>
            size="middle"
            sticky
            scroll={{ x: scrollX }}
            {...tableProps}
            columns={tableColumns}
            dataSource={result.data}
            loading={loading}
            onChange={onTableChange}
            locale={{ emptyText }}
            pagination={{
              current: query.current,
              pageSize: query.pageSize,
              total: result.total,
              showSizeChanger: true,
              pageSizeOptions: PAGE_SIZE_OPTIONS.map(String),
              showTotal: (total) => `共 ${formatCount(total)} 条`,
            }}
          />
        )}
      </Card>
    </Flex>
  )
}
