/**
 * The columns of a seed-record table (page-seed): 我的任务 and the member detail drawer show the
 * same records the same way. Sorting follows the contract's whitelist inside DataTable. The widths add
 * up to what a 1280 px window shows with 上传量 hidden (我的任务: 976 px, 分配时间 included) and to the
 * member drawer with 上传量 but without 分配时间, so no column is cut off there.
 */
import type { SeedRecord } from '@shared/entities'
import { assignmentLabels, claimStateLabels, seedStatusLabels, seedTypeLabels } from '@shared/enums'
import type { DataTableColumn } from '@renderer/components/DataTable'
import { ClaimStateTag, SeedStatusTag, SeedTypeTag } from '@renderer/components/StatusTags'
import { enumOptions } from '@renderer/utils/enumOptions'
import { searchLimits } from '@renderer/utils/formLimits'
import { dateTimeColumn } from '@renderer/components/dateTimeColumn'
import { formatBytes, formatDuration } from '@renderer/utils/format'

/** @param hidden columns (by dataIndex) that start hidden; the column settings can show them. */
export function seedRecordColumns(hidden: readonly (keyof SeedRecord)[] = ['downloaded']): DataTableColumn<SeedRecord>[] {
  const columns: DataTableColumn<SeedRecord>[] = [
    {
      title: '种子名称',
      dataIndex: 'torrentName',
      width: 164,
      ellipsis: true,
      search: { type: 'text', placeholder: '名称包含的文字', maxLength: searchLimits.recordTorrentName },
    },
    { title: '体积', dataIndex: 'size', width: 96, align: 'right', render: (size: number) => formatBytes(size) },
    {
      // Named as in 官种设置's 种子列表 (and its filter): the same value, the same name.
      title: '种子类型',
      dataIndex: 'seedType',
      width: 84,
      search: { type: 'select', options: enumOptions(seedTypeLabels) },
      render: (_, record) => <SeedTypeTag seedType={record.seedType} />,
    },
    {
      title: '状态',
      dataIndex: 'status',
      width: 136,
      search: { type: 'select', options: enumOptions(seedStatusLabels) },
      render: (_, record) => <SeedStatusTag status={record.status} />,
    },
    {
      // One name for the column and its filter.
      title: '认领状态',
      dataIndex: 'claimState',
      width: 76,
      search: { type: 'select', options: enumOptions(claimStateLabels) },
      render: (_, record) => <ClaimStateTag claimState={record.claimState} />,
    },
    { title: '上传量', dataIndex: 'uploaded', width: 100, align: 'right', render: (uploaded: number) => formatBytes(uploaded) },
    { title: '下载量', dataIndex: 'downloaded', width: 100, align: 'right', render: (downloaded: number) => formatBytes(downloaded) },
    {
      title: '做种时长',
      dataIndex: 'seedTimeSec',
      width: 120,
      align: 'right',
      onCell: () => ({ style: { whiteSpace: 'nowrap' } }),
      render: (seconds: number) => formatDuration(seconds),
    },
    dateTimeColumn<SeedRecord>('最后活动', 'lastAction'),
    dateTimeColumn<SeedRecord>('分配时间', 'assignedAt', {
      search: { type: 'select', name: 'assigned', label: '分配状态', options: enumOptions(assignmentLabels) },
    }),
  ]
  return columns.map((column) => (hidden.includes(column.dataIndex as keyof SeedRecord) ? { ...column, hiddenByDefault: true } : column))
}
