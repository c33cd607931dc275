/**
 * 确认生成: asks with the preview's head count and total, then saves the month (unpaid records
 * replaced, paid ones kept).
 */
import { useState } from 'react'
import { SaveOutlined } from '@ant-design/icons'
import { App, Button, Flex, Statistic, Tooltip, Typography } from 'antd'
import { computeWages } from '@renderer/services/wages'
import { toastSuccess } from '@renderer/utils/feedback'
import { formatAmount, formatCount } from '@renderer/utils/format'
import { sumAmounts, type WagePreview } from './WagePreview'

export interface ComputeWagesButtonProps {
  period: string
  /** The month's preview: what the confirmation summarizes. None: nothing to confirm yet. */
  preview: WagePreview | null
  previewing: boolean
  /** The month is not over: nothing to generate yet (the server would refuse). */
  notOver?: boolean
  /** After the month was saved. */
  onSaved(): void
}

export default function ComputeWagesButton({ period, preview, previewing, notOver = false, onSaved }: ComputeWagesButtonProps) {
  const { modal } = App.useApp()
  const [computing, setComputing] = useState(false)

  function confirmCompute() {
    const list = preview?.list ?? []
    const earning = list.filter((entry) => entry.amount > 0).length
    modal.confirm({
      title: `确认生成 ${period} 的工资？`,
      // Wide enough for the three figures side by side; each keeps its label and number on one line.
      width: 560,
      content: (
        <Flex vertical gap={8}>
          <Flex gap={32} wrap data-testid="compute-summary" style={{ whiteSpace: 'nowrap' }}>
            <Statistic title="人数" value={list.length} suffix="人" />
            <Statistic title="其中工资大于 0" value={earning} suffix="人" />
            <Statistic title="合计" value={formatAmount(sumAmounts(list))} suffix="魔力" />
          </Flex>
          <Typography.Paragraph style={{ marginBottom: 0 }}>
            将按规则 v{preview?.ruleVersion ?? '-'} 为每位保种员保存一条 {period} 的工资记录（以上为预览结果）。本月
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
            `已生成 ${formatCount(result.saved)} 条工资记录（规则 v${result.ruleVersion}）${result.keptPaid > 0 ? `，${formatCount(result.keptPaid)} 条已发放（或正在发放到站点）的记录保持不变` : ''}`,
          )
          onSaved()
        } catch {
          // request() showed the server's message
        } finally {
          setComputing(false)
        }
      },
    })
  }

  return (
    <Tooltip title={notOver ? '月份结束后才能生成工资' : undefined}>
      <Button icon={<SaveOutlined />} disabled={notOver || !preview || previewing} loading={computing} onClick={confirmCompute}>
        确认生成
      </Button>
    </Tooltip>
  )
}
