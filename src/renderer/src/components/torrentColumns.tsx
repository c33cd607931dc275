/**
 * The columns both torrent tables (种子列表, 任务分配) show the same way: title, cell and search.
 * Each page passes the widths that fit its selection column and toolbar in a 1280 px window.
 */
import type { Torrent } from '@shared/entities'
import { assignmentLabels, completionLabels, CompletionLabel } from '@shared/enums'
import type { DataTableColumn } from '@renderer/components/DataTable'
import { AssignmentTag, CompletionTag } from '@renderer/components/StatusTags'
import TorrentName from '@renderer/components/TorrentName'
import { enumOptions } from '@renderer/utils/enumOptions'
import { searchLimits } from '@renderer/utils/formLimits'
import { formatBytes, formatCount } from '@renderer/utils/format'

export function torrentNameColumn<T extends Torrent>(width: number): DataTableColumn<T> {
  return {
    title: '种子名称',
    dataIndex: 'name',
    width,
    ellipsis: true,
    // The whole name on hover: antd titles a cut-off cell only when it renders plain text.
    onCell: (torrent) => ({ title: torrent.name }),
    search: { type: 'text', placeholder: '名称包含的文字', maxLength: searchLimits.torrentName },
    render: (_, torrent) => <TorrentName torrent={torrent} />,
  }
}

/** 保种人数 reads `2 / 3`: said on the header, as the other figures' help is. Who counts: docs/domain.md §3 (domain/status.ts isKeeper). */
export const KEEPERS_HELP = '正在保种的保种员人数（做种中的，及正在做种的发布者；无工资的不计）/ 目标保种人数（目标只对官种）'

export function torrentSizeColumn<T extends Torrent>(width: number): DataTableColumn<T> {
  return { title: '体积', dataIndex: 'size', width, align: 'right', render: (size: number) => formatBytes(size) }
}

export function seedersColumn<T extends Torrent>(width: number): DataTableColumn<T> {
  return { title: '做种数', dataIndex: 'seeders', width, align: 'right', render: (seeders: number) => formatCount(seeders) }
}

/** 完成情况; `officialOnly` searches among the official labels (a table of official torrents). */
export function completionColumn<T extends Torrent>(width: number, officialOnly = false): DataTableColumn<T> {
  const official: readonly number[] = [CompletionLabel.OfficialComplete, CompletionLabel.OfficialIncomplete]
  const options = enumOptions(completionLabels)
  return {
    title: '完成情况',
    dataIndex: 'completion',
    width,
    search: { type: 'select', options: officialOnly ? options.filter((option) => official.includes(option.value)) : options },
    render: (_, torrent) => <CompletionTag completion={torrent.completion} />,
  }
}

export function assignmentColumn<T extends Torrent>(width: number, hiddenByDefault?: boolean): DataTableColumn<T> {
  return {
    title: '分配状态',
    dataIndex: 'assigned',
    width,
    hiddenByDefault,
    search: { type: 'select', options: enumOptions(assignmentLabels) },
    render: (_, torrent) => <AssignmentTag assigned={torrent.assigned} />,
  }
}
