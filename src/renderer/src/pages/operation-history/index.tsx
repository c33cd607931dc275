/**
 * 操作日志: every admin change (and logins/logouts), newest first, with operator, action, target,
 * detail and IP. Filters: operator (the user options), action (the Chinese labels), time range.
 */
import { useMemo, useRef } from 'react'
import { Button, Card, Col, DatePicker, Empty, Flex, Form, Row, Select, Space, Tooltip } from 'antd'
import type { Dayjs } from 'dayjs'
import type { OperationLog } from '@shared/entities'
import { operationActionLabels, type OperationActionName } from '@shared/enums'
import DataTable, { NO_MATCH, type DataTableActions, type DataTableColumn } from '@renderer/components/DataTable'
import { dateTimeColumn } from '@renderer/components/dateTimeColumn'
import { useApi } from '@renderer/hooks/useApi'
import { useRememberedState } from '@renderer/hooks/useRememberedState'
import { pageOperationLog } from '@renderer/services/operationLog'
import { submitOnEnter } from '@renderer/utils/submitOnEnter'

export const OPERATION_LOG_TABLE_KEY = 'operationHistory.list'

const targetTypeLabels: Record<string, string> = {
  user: '用户',
  torrent: '种子',
  rules: '官种规则',
  'wage-period': '工资月份',
  'wage-record': '工资记录',
  // A payout of several records names none (its detail lists them).
  'wage-payout': '发放到站点',
  sync: '数据同步',
}

export const actionLabel = (action: string): string => operationActionLabels[action as OperationActionName] ?? action

/** The target by id: `用户 #204`, `官种规则 v3`, `工资月份 2026-10` (a month is no number). */
export function targetIdText(log: Pick<OperationLog, 'targetType' | 'targetId'>): string {
  const type = targetTypeLabels[log.targetType] ?? log.targetType
  if (!log.targetId) return type || '-'
  if (log.targetType === 'rules') return `${type} v${log.targetId}`
  if (log.targetType === 'wage-period') return `${type} ${log.targetId}`
  // A payout names the month it paid, or the one record it paid or settled.
  if (log.targetType === 'wage-payout') return /^\d{4}-\d{2}$/.test(log.targetId) ? `工资月份 ${log.targetId}` : `工资记录 #${log.targetId}`
  return `${type} #${log.targetId}`
}

/** The target by name where the server knows it (`用户 alice`), else by id. */
export function targetText(log: Pick<OperationLog, 'targetType' | 'targetId' | 'targetName'>): string {
  if (!log.targetName) return targetIdText(log)
  return `${targetTypeLabels[log.targetType] ?? log.targetType} ${log.targetName}`
}

/** The 对象 cell: the name, with the id in a tooltip. */
function TargetCell({ log }: { log: OperationLog }) {
  if (!log.targetName) return <span>{targetIdText(log)}</span>
  return (
    <Tooltip title={targetIdText(log)}>
      <span data-testid="log-target">{targetText(log)}</span>
    </Tooltip>
  )
}

/**
 * 990 px in all: within the 998 px a 1280 px window gives the table, so IP is not cut off (wider
 * windows share out the rest). Long names, details and IPv6 addresses end in … with the whole text
 * on hover.
 */
const columns: DataTableColumn<OperationLog>[] = [
  dateTimeColumn<OperationLog>('时间', 'at'),
  { title: '操作人', dataIndex: 'operatorName', width: 110, ellipsis: true, render: (name: string) => name || '-' },
  // The longest label (处理待核对发放) is 7 characters.
  { title: '操作', dataIndex: 'action', width: 120, render: (action: string) => actionLabel(action) },
  { title: '对象', key: 'target', width: 180, ellipsis: { showTitle: false }, render: (_, log) => <TargetCell log={log} /> },
  { title: '详情', dataIndex: 'detail', width: 300, ellipsis: { showTitle: true }, render: (detail: string) => detail || '-' },
  { title: 'IP', dataIndex: 'ip', width: 130, ellipsis: { showTitle: true }, render: (ip: string) => ip || '-' },
]

interface FilterValues {
  operatorId?: number
  action?: string
  range?: [Dayjs | null, Dayjs | null] | null
}

/** The filter form → the call's filters: the range's days become ISO times with offset. */
export function toFilters(values: FilterValues): Record<string, unknown> {
  const filters: Record<string, unknown> = {}
  if (values.operatorId) filters.operatorId = values.operatorId
  if (values.action) filters.action = values.action
  const [from, to] = values.range ?? []
  if (from) filters.from = from.startOf('day').format()
  // With its milliseconds: `format()` drops them, and an action logged in the day's last second fell between two days.
  if (to) filters.to = to.endOf('day').format('YYYY-MM-DDTHH:mm:ss.SSSZ')
  return filters
}

const actionOptions = Object.entries(operationActionLabels).map(([value, label]) => ({ value, label }))

export default function OperationHistoryPage() {
  const [form] = Form.useForm<FilterValues>()
  const table = useRef<DataTableActions>(null)
  // The filters last searched, kept when the user goes to another screen and comes back.
  const [searched, setSearched] = useRememberedState<FilterValues>(OPERATION_LOG_TABLE_KEY, () => ({}))
  const filters = useMemo(() => toFilters(searched), [searched])
  // A failure is toasted once; the select then offers nobody.
  const { data: operators, isLoading: loadingOperators } = useApi('user.list', undefined, { shouldRetryOnError: false })

  const operatorOptions = useMemo(() => (operators ?? []).map((user) => ({ value: user.id, label: user.username })), [operators])

  return (
    <Flex vertical gap={16}>
      <Card size="small" styles={{ body: { paddingBottom: 0 } }}>
        <Form<FilterValues>
          form={form}
          initialValues={searched}
          onFinish={(values) => {
            // 查询 with the filters already shown reads the log again (logins and changes since): the same filters are
            // the same cache key, which asked nothing (found by an outside tester).
            if (JSON.stringify(toFilters(values)) === JSON.stringify(filters)) table.current?.reload()
            else setSearched(values)
          }}
          onKeyDownCapture={submitOnEnter(form)}
          data-testid="operation-log-search"
        >
          <Row gutter={[16, 0]}>
            <Col xs={24} sm={12} lg={6}>
              <Form.Item name="operatorId" label="操作人" style={{ marginBottom: 16 }}>
                <Select
                  allowClear
                  showSearch={{ optionFilterProp: 'label' }}
                  loading={loadingOperators}
                  options={operatorOptions}
                  placeholder="请选择操作人"
                />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12} lg={6}>
              <Form.Item name="action" label="操作" style={{ marginBottom: 16 }}>
                <Select allowClear showSearch={{ optionFilterProp: 'label' }} options={actionOptions} placeholder="请选择操作" />
              </Form.Item>
            </Col>
            <Col xs={24} lg={8}>
              <Form.Item name="range" label="时间" style={{ marginBottom: 16 }}>
                <DatePicker.RangePicker allowEmpty={[true, true]} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col flex="auto" style={{ textAlign: 'right', marginBottom: 16 }}>
              <Space>
                <Button
                  onClick={() => {
                    form.setFieldsValue({ operatorId: undefined, action: undefined, range: null })
                    setSearched({})
                  }}
                >
                  重置
                </Button>
                <Button type="primary" htmlType="submit">
                  查询
                </Button>
              </Space>
            </Col>
          </Row>
        </Form>
      </Card>
      <DataTable<OperationLog>
        ref={table}
        tableKey={OPERATION_LOG_TABLE_KEY}
        title="操作日志"
        rowKey="id"
        columns={columns}
        params={filters}
        // The filters reach the table as its fixed params, which it does not count as a search: say so here (the log
        // is never empty — each login writes a row — so 暂无数据 would read as if nothing had ever happened).
        empty={Object.keys(filters).length > 0 ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={NO_MATCH} /> : undefined}
        request={(params, sort) => pageOperationLog(params, sort)}
      />
    </Flex>
  )
}
