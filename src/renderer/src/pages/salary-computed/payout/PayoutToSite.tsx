/**
 * 发放到站点: the selected records (or the whole month) → a dry run per member (bonus before →
 * after, the log line, the message) → confirm → progress → the result per member (成功 / 已发放过
 * / 待核对 / 失败 with the reason). 待核对 rows are settled here by one click. Nothing is written to
 * the site before the confirmation.
 */
import { useState } from 'react'
import { CloudUploadOutlined } from '@ant-design/icons'
import { Alert, App, Button, Flex, Modal, Popover, Progress, Space, Spin, Table, Tag, Typography, type TableColumnsType } from 'antd'
import type { PayoutPreview, PayoutPreviewEntry, PayoutResult } from '@shared/payout'
import { payoutStatusLabels } from '@shared/payout'
import { previewPayout, resolvePayout, runPayout } from '@renderer/services/payout'
import { RequestError } from '@renderer/services/request'
import { toastSuccess } from '@renderer/utils/feedback'

/** Records per call: the progress moves member group by member group. */
const CHUNK = 10

const statusColors: Record<PayoutResult['status'], string> = {
  paid: 'green',
  already: 'default',
  in_doubt: 'orange',
  failed: 'red',
  pending: 'blue',
}
const readyTags: Record<PayoutPreviewEntry['status'], { color: string; text: string }> = {
  ready: { color: 'blue', text: '将发放' },
  already: { color: 'default', text: '已发放过' },
  in_doubt: { color: 'orange', text: '待核对' },
  blocked: { color: 'red', text: '无法发放' },
}

const bonusChange = (before: string | null, after: string | null) => (before === null ? '-' : `${before} → ${after ?? '?'}`)

/** Opens on click, to the left: a hover-opened message (tall) lay over 确认发放 when the pointer crossed the column on its way down. */
function MessagePreview({ entry }: { entry: PayoutPreviewEntry }) {
  return (
    <Popover
      trigger="click"
      placement="left"
      title={entry.subject}
      content={
        <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', maxWidth: 520, marginBottom: 0 }}>{entry.message}</Typography.Paragraph>
      }
    >
      <Typography.Link>{entry.subject}</Typography.Link>
    </Popover>
  )
}

const previewColumns: TableColumnsType<PayoutPreviewEntry> = [
  { title: '保种员', dataIndex: 'username', width: 130, ellipsis: true },
  {
    title: '到站魔力',
    dataIndex: 'credit',
    width: 170,
    align: 'right',
    render: (credit: string, entry) => (
      <Space direction="vertical" size={0}>
        <Typography.Text strong>{credit}</Typography.Text>
        {entry.rounding ? (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            按一位小数：{entry.rounding}
          </Typography.Text>
        ) : null}
      </Space>
    ),
  },
  { title: '魔力 发放前 → 发放后', key: 'bonus', width: 210, render: (_, entry) => bonusChange(entry.bonusBefore, entry.bonusAfter) },
  { title: '魔力记录', dataIndex: 'logComment', ellipsis: true },
  { title: '站内信', key: 'message', width: 220, ellipsis: true, render: (_, entry) => <MessagePreview entry={entry} /> },
  {
    title: '状态',
    dataIndex: 'status',
    width: 200,
    render: (status: PayoutPreviewEntry['status'], entry) => (
      <Space direction="vertical" size={0}>
        <Tag color={readyTags[status].color}>{readyTags[status].text}</Tag>
        {entry.note ? <Typography.Text type="secondary">{entry.note}</Typography.Text> : null}
      </Space>
    ),
  },
]

/** A preview row that is not paid this time, as its result row. */
function resultOfPreview(entry: PayoutPreviewEntry): PayoutResult {
  return {
    wageId: entry.wageId,
    userId: entry.userId,
    username: entry.username,
    status: entry.status === 'in_doubt' ? 'in_doubt' : 'already',
    reason: entry.note,
    credit: entry.credit,
    bonusBefore: null,
    bonusAfter: null,
    logId: null,
    messageId: null,
  }
}

export interface PayoutToSiteProps {
  period: string
  /** Selected wage record ids; none = the whole month. */
  selected: number[]
  /** After a payout: the records' 发放状态 changed. */
  onPaid: () => void
}

type Phase = 'closed' | 'preview' | 'paying' | 'done'

export default function PayoutToSite({ period, selected, onPaid }: PayoutToSiteProps) {
  const { modal } = App.useApp()
  const [phase, setPhase] = useState<Phase>('closed')
  const [preview, setPreview] = useState<PayoutPreview | null>(null)
  const [previewError, setPreviewError] = useState<string | null>(null)
  const [results, setResults] = useState<PayoutResult[]>([])
  const [progress, setProgress] = useState({ done: 0, total: 0 })
  const [settling, setSettling] = useState<number | null>(null)

  const toPay = preview?.list.filter((e) => e.status === 'ready' || e.status === 'blocked') ?? []
  /** 待核对 rows are not paid again; they are settled on the result table. */
  const inDoubt = preview?.list.filter((e) => e.status === 'in_doubt').length ?? 0

  async function open() {
    setPhase('preview')
    setPreview(null)
    setPreviewError(null)
    setResults([])
    try {
      setPreview(await previewPayout(selected.length ? { ids: selected } : { period }, { silent: true }))
    } catch (error) {
      setPreviewError(error instanceof RequestError ? error.msg : '预览失败')
    }
  }

  async function pay() {
    if (!preview) return
    const ids = toPay.map((e) => e.wageId)
    const skipped = preview.list.filter((e) => e.status === 'already' || e.status === 'in_doubt').map(resultOfPreview)
    setPhase('paying')
    setProgress({ done: 0, total: ids.length })
    const out: PayoutResult[] = []
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK)
      try {
        out.push(...(await runPayout(chunk, { silent: true })))
      } catch (error) {
        // The answer was lost: the server may have paid them. Reopening shows what the ledger says.
        const why = error instanceof RequestError ? error.msg : '请求失败'
        for (const entry of toPay.filter((e) => chunk.includes(e.wageId))) {
          out.push({ ...resultOfPreview(entry), status: 'failed', reason: `${why}（请重新打开「发放到站点」查看实际结果）` })
        }
      }
      setProgress({ done: Math.min(i + CHUNK, ids.length), total: ids.length })
    }
    setResults([...out, ...skipped])
    setPhase('done')
    if (ids.length === 0) return
    const paid = out.filter((r) => r.status === 'paid').length
    toastSuccess(`发放完成：成功 ${paid} 人`)
    onPaid()
  }

  function settle(row: PayoutResult, action: 'markDone' | 'payRest') {
    modal.confirm({
      title: action === 'markDone' ? `确认 ${row.username} 的魔力已到账？` : `为 ${row.username} 补发剩余部分？`,
      content:
        action === 'markDone'
          ? '请先在站点上核对该会员的魔力确实已增加。确认后记为已发放，并补发站内信（如未发出）。'
          : `请先在站点上核对该会员的魔力确实没有增加。将为其增加 ${row.credit} 魔力并补发站内信。`,
      okText: action === 'markDone' ? '确认已到账' : '补发',
      cancelText: '取消',
      onOk: async () => {
        setSettling(row.wageId)
        try {
          const settled = await resolvePayout(row.wageId, action)
          setResults((list) => list.map((r) => (r.wageId === row.wageId ? settled : r)))
          onPaid()
        } catch {
          // toasted by request()
        } finally {
          setSettling(null)
        }
      },
    })
  }

  const resultColumns: TableColumnsType<PayoutResult> = [
    { title: '保种员', dataIndex: 'username', width: 130, ellipsis: true },
    { title: '到站魔力', dataIndex: 'credit', width: 110, align: 'right' },
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

  const footer =
    phase === 'preview' ? (
      <Space>
        <Button onClick={() => setPhase('closed')}>取消</Button>
        <Button
          type="primary"
          disabled={!preview || preview.disabledReason !== null || (toPay.length === 0 && inDoubt === 0)}
          onClick={() => void pay()}
        >
          {toPay.length || inDoubt === 0 ? `确认发放${toPay.length ? ` (${toPay.length} 人)` : ''}` : `处理待核对 (${inDoubt} 人)`}
        </Button>
      </Space>
    ) : phase === 'done' ? (
      <Button type="primary" onClick={() => setPhase('closed')}>
        关闭
      </Button>
    ) : null

  return (
    <>
      <Button icon={<CloudUploadOutlined />} onClick={() => void open()}>
        发放到站点{selected.length ? ` (${selected.length})` : '（整月）'}
      </Button>
      <Modal
        open={phase !== 'closed'}
        title={`发放到站点 · ${selected.length ? `选中的 ${selected.length} 条` : `${period} 整月`}${preview ? ` · ${preview.targetLabel}` : ''}`}
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
              <Flex vertical gap={12}>
                {preview.disabledReason ? <Alert type="warning" showIcon title={preview.disabledReason} /> : null}
                <Typography.Text type="secondary">
                  以下是确认后将写入站点的内容（现在还没有写入任何数据）。已发放过和待核对的记录不会再发放。
                </Typography.Text>
                <Table<PayoutPreviewEntry>
                  data-testid="payout-preview"
                  size="small"
                  rowKey="wageId"
                  columns={previewColumns}
                  dataSource={preview.list}
                  scroll={{ x: 1100, y: 420 }}
                  pagination={false}
                />
              </Flex>
            )
          ) : phase === 'paying' ? (
            <Flex vertical align="center" gap={12} style={{ padding: 32 }}>
              <Progress type="circle" percent={progress.total ? Math.round((progress.done / progress.total) * 100) : 100} />
              <Typography.Text>
                正在发放：{progress.done} / {progress.total} 人
              </Typography.Text>
            </Flex>
          ) : (
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
                columns={resultColumns}
                dataSource={results}
                scroll={{ x: 1100, y: 480 }}
                pagination={false}
              />
            </Flex>
          )}
        </div>
      </Modal>
    </>
  )
}
