/**
 * 工资计算 (admins): pick a month → 预览计算 (nothing saved; can take seconds) → per-member
 * results with the rule version, each opening its breakdown → 确认生成 (unpaid records of the
 * month replaced, paid ones kept) → the month's saved records → select → 标记已发放. Export the
 * month as .xlsx or .csv through main's save dialog.
 */
import { useCallback, useMemo, useRef, useState } from 'react'
import { CalculatorOutlined } from '@ant-design/icons'
import { Alert, Button, Card, DatePicker, Flex, Typography } from 'antd'
import dayjs, { type Dayjs } from 'dayjs'
import WageBreakdownDrawer, { type BreakdownSource } from '@renderer/components/WageBreakdownDrawer'
import { useRememberedState } from '@renderer/hooks/useRememberedState'
import ComputeWagesButton from './ComputeWagesButton'
import SavedWages, { type SavedWagesActions } from './SavedWages'
import WagePreviewCard, { useWagePreview } from './WagePreview'

export const PERIOD_FORMAT = 'YYYY-MM'

/** The month before `now`, as the default choice (wages are computed for a finished month). */
export const lastMonth = (now: Dayjs = dayjs()) => now.subtract(1, 'month').startOf('month')

/**
 * A month not over yet (by this computer's clock) can be previewed, not generated: its wage reads the counters at
 * the month's end, and a record paid early would never change — the rest of the month unpaid. The server refuses
 * too (by the rules' time zone); this says so before the admin tries.
 */
export function monthInProgressNotice(period: string, now: Dayjs = dayjs()): string | null {
  if (period !== now.format(PERIOD_FORMAT)) return null
  const left = now.endOf('month').diff(now, 'day') + 1
  return `${period} 还没有结束（还剩 ${left} 天）：可以「预览计算」看到此刻为止的工资；月份结束后才能生成工资和发放。`
}

export default function SalaryComputedPage() {
  // The month chosen stays for the session: a look at 工资排行 and back shows the same month (and its
  // saved records at the page and sort they were left at), not last month again.
  const [period, setPeriod] = useRememberedState<string>('salaryComputed.period', () => lastMonth().format(PERIOD_FORMAT))
  const month = useMemo(() => dayjs(period, PERIOD_FORMAT), [period])
  const preview = useWagePreview(period)
  const saved = useRef<SavedWagesActions>(null)
  const [breakdown, setBreakdown] = useState<BreakdownSource | null>(null)
  const openRecord = useCallback((id: number) => setBreakdown({ kind: 'record', id }), [])
  const inProgress = monthInProgressNotice(period)

  function changeMonth(value: Dayjs | null) {
    if (!value) return
    setPeriod(value.format(PERIOD_FORMAT))
  }

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
          <Button type="primary" icon={<CalculatorOutlined />} loading={preview.previewing} onClick={preview.run}>
            预览计算
          </Button>
          <ComputeWagesButton
            period={period}
            preview={preview.preview}
            previewing={preview.previewing}
            notOver={inProgress !== null}
            onSaved={() => saved.current?.reload()}
          />
          <Typography.Text type="secondary">预览不会保存任何数据；确认生成后才写入工资记录。</Typography.Text>
        </Flex>
      </Card>
      {inProgress && <Alert type="info" showIcon title={inProgress} />}
      <WagePreviewCard period={period} state={preview} onOpen={(userId) => setBreakdown({ kind: 'preview', period, userId })} />
      <SavedWages ref={saved} period={period} onOpen={openRecord} />
      <WageBreakdownDrawer source={breakdown} onClose={() => setBreakdown(null)} />
    </Flex>
  )
}
