/**
 * 种子列表: every torrent with its seed type (a small 手动 badge when an admin set it by hand),
 * completion and keepers; select rows → 设为官种 / 设为非官种 / 恢复按规则 (torrent/set-type).
 */
import { useRef, useState } from 'react'
import { Button, Popconfirm, Space, Tag, Tooltip } from 'antd'
import type { Torrent } from '@shared/entities'
import { sortableFields } from '@shared/endpoints'
import { SeedType, seedTypeLabels } from '@shared/enums'
import DataTable, { type DataTableActions, type DataTableColumn } from '@renderer/components/DataTable'
import {
  assignmentColumn,
  completionColumn,
  seedersColumn,
  torrentNameColumn,
  torrentSizeColumn,
  KEEPERS_HELP,
} from '@renderer/components/torrentColumns'
import { dateTimeColumn } from '@renderer/components/dateTimeColumn'
import { SeedTypeTag } from '@renderer/components/StatusTags'
import { pageTorrents, setTorrentType } from '@renderer/services/torrents'
import { enumOptions } from '@renderer/utils/enumOptions'
import { searchLimits } from '@renderer/utils/formLimits'
import { toastSuccess } from '@renderer/utils/feedback'
import { formatCount } from '@renderer/utils/format'

export const TORRENT_LIST_TABLE_KEY = 'torrentManage.torrents'

/** `2 / 3` for an official torrent (the target applies to 官种 only), just `2` for the others. */
export const keepersText = (torrent: Pick<Torrent, 'keepers' | 'targetKeepers' | 'seedType'>) =>
  torrent.seedType === SeedType.Official ? `${torrent.keepers} / ${torrent.targetKeepers}` : String(torrent.keepers)

// The widths fit a 1280 px window with the selection column (962 px), so 完成情况 is not cut off there.
// 制作组 starts hidden, as in 任务分配: the 种子类型 column says what the rules made of it, and its
// search stays in the form.
const columns: DataTableColumn<Torrent>[] = [
  torrentNameColumn(260),
  torrentSizeColumn(100),
  {
    title: '制作组',
    dataIndex: 'team',
    width: 110,
    ellipsis: true,
    hiddenByDefault: true,
    search: { type: 'text', placeholder: '完整的制作组名', maxLength: searchLimits.torrentTeam },
    render: (team: string | null) => team ?? '-',
  },
  dateTimeColumn<Torrent>('发布时间', 'addedAt'),
  seedersColumn(84),
  {
    title: '下载数',
    dataIndex: 'leechers',
    width: 84,
    align: 'right',
    hiddenByDefault: true,
    render: (leechers: number) => formatCount(leechers),
  },
  {
    title: '保种人数',
    onHeaderCell: () => ({ title: KEEPERS_HELP }),
    dataIndex: 'keepers',
    width: 96,
    align: 'right',
    render: (_, torrent) => keepersText(torrent),
  },
  {
    title: '种子类型',
    dataIndex: 'seedType',
    width: 120,
    search: { type: 'select', options: enumOptions(seedTypeLabels) },
    render: (_, torrent) => (
      <Space size={2}>
        <SeedTypeTag seedType={torrent.seedType} />
        {torrent.seedTypeSource === 'manual' && (
          <Tooltip title="管理员手动设置，优先于官种规则">
            <Tag color="orange" bordered={false} style={{ fontSize: 11, lineHeight: '16px', paddingInline: 4 }} data-testid="manual-badge">
              手动
            </Tag>
          </Tooltip>
        )}
      </Space>
    ),
  },
  completionColumn(120),
  assignmentColumn(96, true),
]

export default function TorrentList() {
  const table = useRef<DataTableActions>(null)
  const [selected, setSelected] = useState<number[]>([])

  const setType = async (seedType: SeedType | null) => {
    try {
      const { updated } = await setTorrentType(selected, seedType)
      toastSuccess(seedType === null ? `已将 ${updated} 个种子恢复按规则判定` : `已将 ${updated} 个种子设为${seedTypeLabels[seedType]}`)
      setSelected([])
      table.current?.reload()
    } catch {
      // request() showed the server's message; the selection stays
    }
  }

  const none = selected.length === 0
  return (
    <DataTable<Torrent>
      ref={table}
      tableKey={TORRENT_LIST_TABLE_KEY}
      title={selected.length ? `种子（已选 ${selected.length} 个）` : '种子'}
      rowKey="id"
      columns={columns}
      sortableFields={sortableFields.torrentPage}
      request={(params, sort) => pageTorrents(params, sort)}
      rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]), preserveSelectedRowKeys: true }}
      toolbar={
        <>
          {([SeedType.Official, SeedType.Unofficial] as const).map((seedType) => (
            // A hand-set type outranks the rules and decides the torrents' wages: asked first, like 恢复按规则.
            <Popconfirm
              key={seedType}
              title={`将 ${selected.length} 个种子设为${seedTypeLabels[seedType]}？`}
              description="手动设置优先于官种规则（带「手动」标记），只有官种计工资；可用「恢复按规则」改回。"
              okText={`设为${seedTypeLabels[seedType]}`}
              cancelText="取消"
              disabled={none}
              onConfirm={() => setType(seedType)}
            >
              <Button disabled={none}>设为{seedTypeLabels[seedType]}</Button>
            </Popconfirm>
          ))}
          <Popconfirm
            title={`恢复 ${selected.length} 个种子按规则判定？`}
            description="手动设置的种子类型将被清除，改由官种规则决定。"
            okText="恢复"
            cancelText="取消"
            disabled={none}
            onConfirm={() => setType(null)}
          >
            <Button disabled={none}>恢复按规则</Button>
          </Popconfirm>
        </>
      }
    />
  )
}
