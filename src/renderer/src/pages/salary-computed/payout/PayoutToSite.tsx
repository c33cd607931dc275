/**
 * 发放到站点: the selected records (or the whole month) → a dry run per member (bonus before →
 * after, the log line, the message) → confirm → progress → the result per member (成功 / 已发放过
 * / 待核对 / 失败 with the reason). 待核对 rows are settled here by one click. Nothing is written to
 * the site before the confirmation.
 */
import { useState } from 'react'
import { CloudUploadOutlined } from '@ant-design/icons'
import { Alert, Button, Flex, Modal, Progress, Space, Spin, Typography } from 'antd'
import type { PayoutResult } from '@shared/payout'
import DisabledReason from '@renderer/components/DisabledReason'
import { WINDOW_FIT_MODAL } from '@renderer/components/windowFitModal'
import { useAskedLoad } from '@renderer/hooks/useApi'
import { previewPayout, type PayoutSelection } from '@renderer/services/payout'
import { RequestError } from '@renderer/services/request'
import { toastSuccess } from '@renderer/utils/feedback'
import { payInChunks, payoutPlan } from './payInChunks'
import PayoutPreviewTable from './PayoutPreviewTable'
import PayoutResultTable from './PayoutResultTable'
import { formatCount } from '@renderer/utils/format'

export interface PayoutToSiteProps {
  period: string
  /** Selected wage record ids; none = the whole month. */
  selected: number[]
  /** After a payout: the records' 发放状态 changed. */
  onPaid: () => void
  /** Why there is nothing to pay (e.g. the month has no records): the button is disabled and says so. */
  disabledReason?: string | null
}

type Phase = 'closed' | 'preview' | 'paying' | 'done'

export default function PayoutToSite({ period, selected, onPaid, disabledReason = null }: PayoutToSiteProps) {
  const [phase, setPhase] = useState<Phase>('closed')
  // What this opening pays, fixed when it opened: paying clears the selection behind the open
  // dialog, and the result must still name what was paid.
  const [scope, setScope] = useState<PayoutSelection>({ period })
  // Each opening reads the dry run afresh (the bonus is read live from the site), for the records
  // selected when it opened: paying clears the selection behind the open dialog.
  const dryRun = useAskedLoad('wages.payoutPreview', (selection: PayoutSelection) => previewPayout(selection, { silent: true }))
  const preview = dryRun.data ?? null
  const previewError = dryRun.error ? (dryRun.error instanceof RequestError ? dryRun.error.msg : '预览失败') : null
  const [results, setResults] = useState<PayoutResult[]>([])
  const [progress, setProgress] = useState({ done: 0, total: 0 })
  const { toPay, payable, skipped, inDoubt } = payoutPlan(preview)

  function open() {
    setPhase('preview')
    setResults([])
    const selection: PayoutSelection = selected.length ? { ids: [...selected] } : { period }
    setScope(selection)
    dryRun.ask(selection)
  }

  async function pay() {
    if (!preview) return
    setPhase('paying')
    setProgress({ done: 0, total: toPay.length })
    const out = await payInChunks(toPay, setProgress)
    setResults([...out, ...skipped])
    setPhase('done')
    if (toPay.length === 0) return
    const paid = out.filter((r) => r.status === 'paid').length
    toastSuccess(`发放完成：成功 ${formatCount(paid)} 人`)
    onPaid()
  }

  function settled(row: PayoutResult) {
    setResults((list) => list.map((r) => (r.wageId === row.wageId ? row : r)))
    onPaid()
  }

  const footer =
    phase === 'preview' ? (
      <Space>
        <Button onClick={() => setPhase('closed')}>取消</Button>
        <Button
          type="primary"
          disabled={!preview || preview.disabledReason !== null || (payable === 0 && inDoubt === 0)}
          onClick={() => void pay()}
        >
          {/* The members the preview says will be paid: not the 无法发放 ones, which come back 失败 with their reason. */}
          {payable || inDoubt === 0 ? `确认发放${payable ? `（${payable} 人）` : ''}` : `处理待核对（${inDoubt} 人）`}
        </Button>
      </Space>
    ) : phase === 'done' ? (
      <Button type="primary" onClick={() => setPhase('closed')}>
        关闭
      </Button>
    ) : null

  return (
    <>
      <DisabledReason reason={disabledReason}>
        <Button icon={<CloudUploadOutlined />} disabled={disabledReason !== null} onClick={open}>
          发放到站点{selected.length ? `（${selected.length}）` : '（整月）'}
        </Button>
      </DisabledReason>
      <Modal
        {...WINDOW_FIT_MODAL}
        open={phase !== 'closed'}
        title={`发放到站点 · ${scopeLabel(scope)}${preview ? ` · ${preview.targetLabel}` : ''}`}
        width={1180}
        footer={footer}
        closable={phase !== 'paying'}
        maskClosable={false}
        onCancel={() => phase !== 'paying' && setPhase('closed')}
        destroyOnHidden
      >
        <div data-testid="payout-modal">
          {phase === 'preview' ? (
            previewError ? (
              <Alert type="error" showIcon title={previewError} />
            ) : !preview ? (
              <Flex justify="center" style={{ padding: 48 }}>
                <Spin description="正在读取站点上的魔力…" />
              </Flex>
            ) : (
              <PayoutPreviewTable preview={preview} />
            )
          ) : phase === 'paying' ? (
            <Flex vertical align="center" gap={12} style={{ padding: 32 }}>
              <Progress type="circle" percent={progress.total ? Math.round((progress.done / progress.total) * 100) : 100} />
              <Typography.Text>
                正在发放：{progress.done} / {progress.total} 人
              </Typography.Text>
            </Flex>
          ) : (
            <PayoutResultTable results={results} onSettled={settled} />
          )}
        </div>
      </Modal>
    </>
  )
}

function scopeLabel(scope: PayoutSelection): string {
  return 'ids' in scope ? `选中的 ${scope.ids.length} 条` : `${scope.period} 整月`
}
