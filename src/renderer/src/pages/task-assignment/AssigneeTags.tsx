/**
 * The 保种员 cell of 任务分配: who a torrent is assigned to, each name removable on its own (the
 * toolbar's 取消分配 removes every member of the selected torrents).
 */
import { CloseOutlined } from '@ant-design/icons'
import { Flex, Tag, Tooltip } from 'antd'
import type { Assignee } from '@shared/entities'
import { formatDateTime } from '@renderer/utils/format'

export interface AssigneeTagsProps {
  /** undefined: not loaded (the call failed). */
  assignees: Assignee[] | undefined
  onRemove(assignee: Assignee): void
}

export default function AssigneeTags({ assignees, onRemove }: AssigneeTagsProps) {
  if (!assignees?.length) return <span>-</span>
  return (
    <Flex wrap gap={4} data-testid="assignees">
      {assignees.map((assignee) => (
        <Tooltip key={assignee.userId} title={`分配于 ${formatDateTime(assignee.assignedAt)}`}>
          <Tag
            style={{ marginInlineEnd: 0 }}
            closable
            closeIcon={<CloseOutlined aria-label={`移除 ${assignee.username} 的分配`} />}
            onClose={(event) => {
              // The tag stays until the member is really removed (after the confirmation).
              event.preventDefault()
              onRemove(assignee)
            }}
          >
            {assignee.username}
          </Tag>
        </Tooltip>
      ))}
    </Flex>
  )
}
