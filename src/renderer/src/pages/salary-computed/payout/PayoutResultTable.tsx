/**
 * The outcome of 发放到站点 per member (成功 / 已发放过 / 待核对 / 失败 with the reason); a 待核对
 * row is settled here by one click, after the admin checked the member's bonus on the site.
 */
import { useState } from 'react'
import { App, Button, Flex, Space, Table, Tag, Typography, type TableColumnsType } from 'antd'
import { payoutStatusLabels, type PayoutResult } from '@shared/payout'
import { resolvePayout } from '@renderer/services/payout'
import { bonusChange, groupedBonus } from './PayoutPreviewTable'

const statusColors: Record<PayoutResult['status'], string> = {
  paid: 'green',
  already: 'default',
  in_doubt: 'orange',
  failed: 'red',
  pending: 'blue',
}

export interface PayoutResultTableProps {
  results: PayoutResult[]
  /** A 待核对 row was settled: its new result. */
  onSettled(settled: PayoutResult): void
}

export default function PayoutResultTable({ results, onSettled }: PayoutResultTableProps) {
  const { modal } = App.useApp()
  const [settling, setSettling] = useState<number | null>(null)

  function settle(row: PayoutResult, action: 'markDone' | 'payRest') {
    modal.confirm({
      title: action === 'markDone' ? `确认 ${row.username} 的魔力已到账？` : `为 ${row.username} 补发剩余部分？`,
      content:
        action === 'markDone'
          ? '请先在站点上核对该保种员的魔力确实已增加。确认后记为已发放，并补发站内信（如未发出）。'
          : `请先在站点上核对该保种员的魔力确实没有增加。将为其增加 ${groupedBonus(row.credit)} 魔力并补发站内信。`,
      okText: action === 'markDone' ? '确认已到账' : '补发',
      cancelText: '取消',
      onOk: async () => {
        setSettling(row.wageId)
        try {
          onSettled(await resolvePayout(row.wageId, action))
        } catch {
          // toasted by request()
        } finally {
          setSettling(null)
        }
      },
    })
  }

  const columns: TableColumnsType<PayoutResult> = [
    { title: '保种员', dataIndex: 'username', width: 130, ellipsis: true },
    { title: '到站魔力', dataIndex: 'credit', width: 110, align: 'right', render: (credit: string) => groupedBonus(credit) },
    {
      title: '结果',
      dataIndex: 'status',
      width: 90,
      render: (status: PayoutResult['status']) => <Tag color={statusColors[status]}>{payoutStatusLabels[status]}</Tag>,
    },
    { title: '原因', dataIndex: 'reason', render: (reason: string | null) => reason ?? '-' },
    { title: '魔力 发放前 → 发放后', key: 'bonus', width: 200, render: (_, row) => bonusChange(row.bonusBefore, row.bonusAfter) },
    { title: '魔力记录', dataIndex: 'logId', width: 90, render: (id: number | null) => (id === null ? '-' : `#${id}`) },
    {
      title: '操作',
      key: 'settle',
      width: 190,
      render: (_, row) =>
        row.status === 'in_doubt' ? (
          <Space size={4}>
            <Button size="small" loading={settling === row.wageId} onClick={() => settle(row, 'markDone')}>
              确认已到账
            </Button>
            <Button size="small" danger loading={settling === row.wageId} onClick={() => settle(row, 'payRest')}>
              补发剩余部分
            </Button>
          </Space>
        ) : null,
    },
  ]

  return (
    <Flex vertical gap={12}>
      <Space size={16} data-testid="payout-summary">
        {(Object.keys(payoutStatusLabels) as PayoutResult['status'][]).map((status) => {
          const count = results.filter((r) => r.status === status).length
          return count ? <Typography.Text key={status}>{`${payoutStatusLabels[status]} ${count} 人`}</Typography.Text> : null
        })}
      </Space>
      <Table<PayoutResult>
        data-testid="payout-results"
        size="small"
        rowKey="wageId"
        columns={columns}
        dataSource={results}
        scroll={{ x: 1100, y: 480 }}
        pagination={false}
      />
    </Flex>
  )
}
