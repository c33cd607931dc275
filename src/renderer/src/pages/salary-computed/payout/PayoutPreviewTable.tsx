/**
 * The dry run of 发放到站点, per member: the credit (and its rounding to one decimal), the bonus
 * before → after, the bonus log line, the message and whether it will be paid. Nothing is written yet.
 */
import { Alert, Flex, Popover, Space, Table, Tag, Typography, type TableColumnsType } from 'antd'
import type { PayoutPreview, PayoutPreviewEntry } from '@shared/payout'

const readyTags: Record<PayoutPreviewEntry['status'], { color: string; text: string }> = {
  ready: { color: 'blue', text: '将发放' },
  already: { color: 'default', text: '已发放过' },
  in_doubt: { color: 'orange', text: '待核对' },
  blocked: { color: 'red', text: '无法发放' },
}

/** A site's bonus as the server sends it (`760634.7`), grouped in thousands like every other amount: `760,634.7`. */
export const groupedBonus = (value: string) => value.replace(/^(-?\d+)/, (whole) => whole.replace(/\B(?=(\d{3})+$)/g, ','))
export const bonusChange = (before: string | null, after: string | null) =>
  before === null ? '-' : `${groupedBonus(before)} → ${after === null ? '?' : groupedBonus(after)}`

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
        <Typography.Text strong>{groupedBonus(credit)}</Typography.Text>
        {entry.rounding ? (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            按一位小数：{entry.rounding.split(' → ').map(groupedBonus).join(' → ')}
          </Typography.Text>
        ) : null}
      </Space>
    ),
  },
  {
    title: '魔力 发放前 → 发放后',
    key: 'bonus',
    width: 210,
    render: (_, entry) =>
      entry.status === 'ready' || entry.bonusBefore === null
        ? bonusChange(entry.bonusBefore, entry.bonusAfter)
        : `当前 ${groupedBonus(entry.bonusBefore)}`,
  },
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

export default function PayoutPreviewTable({ preview }: { preview: PayoutPreview }) {
  return (
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
}
