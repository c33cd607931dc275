/**
 * A wage's per-torrent items (up to a few thousand): sortable by size, seeders, hours, upload and
 * value, filtered by 达标/未达标 and by a name search, all in the client.
 */
import { useMemo, useState } from 'react'
import { CheckOutlined, CloseOutlined } from '@ant-design/icons'
import { Flex, Input, Table, Typography, theme, type TableColumnsType } from 'antd'
import type { WageItem } from '@shared/entities'
import { formatAmount, formatBytes, formatCount } from '@renderer/utils/format'
import { figureCell, formatSeedHours } from './hours'
import { PartialMonthTag } from './PartialMonthTag'

function QualifiedCell({ item }: { item: WageItem }) {
  const { token } = theme.useToken()
  if (item.qualified)
    return (
      <span style={{ color: token.colorSuccess }} aria-label="达标">
        <CheckOutlined /> 达标
      </span>
    )
  return (
    <Flex vertical gap={2}>
      <span style={{ color: token.colorError }} aria-label="未达标">
        <CloseOutlined /> 未达标
      </span>
      {item.reason && (
        <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid="wage-item-reason">
          {item.reason}
        </Typography.Text>
      )}
    </Flex>
  )
}

/** Unqualified torrents have no keeper rank (the engine stores 0). */
export const keeperRankText = (item: WageItem) => (item.qualified && item.keeperRank > 0 ? String(item.keeperRank) : '-')

type FigureKey = 'size' | 'seeders' | 'seedHours' | 'uploaded' | 'value'

/** A right-aligned number column, sortable by the number. */
const figureColumn = (title: string, key: FigureKey, width: number, format: (n: number) => string): TableColumnsType<WageItem>[number] => ({
  title,
  dataIndex: key,
  width,
  align: 'right',
  onCell: figureCell,
  render: (n: number) => format(n),
  sorter: (a, b) => a[key] - b[key],
})

// The widths add up to what the drawer (1080 px, 24 px padding each side) shows, so the table does
// not scroll sideways and 达标's filter is not cut off.
const columns: TableColumnsType<WageItem> = [
  {
    title: '种子名称',
    dataIndex: 'torrentName',
    width: 270,
    ellipsis: true,
    fixed: 'left',
    render: (name: string, item) => (
      <>
        {name}
        <PartialMonthTag partial={item.partial} />
      </>
    ),
  },
  figureColumn('体积', 'size', 100, formatBytes),
  figureColumn('做种人数', 'seeders', 90, formatCount),
  figureColumn('做种时长', 'seedHours', 110, formatSeedHours),
  figureColumn('上传量', 'uploaded', 100, formatBytes),
  { title: '保种排名', dataIndex: 'keeperRank', width: 80, align: 'right', onCell: figureCell, render: (_, item) => keeperRankText(item) },
  {
    ...figureColumn('价值', 'value', 100, formatAmount),
    // A bare number beside amounts in 魔力: say what it is.
    onHeaderCell: () => ({ title: '种子价值（NexusPHP 做种公式，无单位）：达标种子的价值之和决定每小时魔力' }),
  },
  {
    title: '达标',
    key: 'qualified',
    width: 180,
    filters: [
      { text: '达标', value: true },
      { text: '未达标', value: false },
    ],
    onFilter: (value, item) => item.qualified === value,
    render: (_, item) => <QualifiedCell item={item} />,
  },
]

const COLUMNS_WIDTH = columns.reduce((sum, column) => sum + Number(column.width), 0)

export default function WageItemsTable({ items }: { items: WageItem[] }) {
  const [search, setSearch] = useState('')
  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase()
    return needle ? items.filter((item) => item.torrentName.toLowerCase().includes(needle)) : items
  }, [items, search])
  return (
    <Flex vertical gap={12}>
      <Input.Search
        allowClear
        placeholder="搜索种子名称"
        aria-label="搜索种子名称"
        onSearch={setSearch}
        onChange={(event) => setSearch(event.target.value)}
        style={{ maxWidth: 360 }}
      />
      <Table<WageItem>
        size="small"
        rowKey="torrentId"
        columns={columns}
        dataSource={shown}
        scroll={{ x: COLUMNS_WIDTH }}
        sticky
        data-testid="wage-items"
        pagination={{
          defaultPageSize: 50,
          showSizeChanger: true,
          pageSizeOptions: ['20', '50', '100', '200'],
          showTotal: (total) => `共 ${formatCount(total)} 条`,
        }}
      />
    </Flex>
  )
}
