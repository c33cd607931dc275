/**
 * The 保种员 cell of 任务分配: who a torrent is assigned to, each name removable on its own (the
 * toolbar's 取消分配 removes every member of the selected torrents). A torrent kept by many shows the
 * first few and 「+N」, which shows the rest (a row of 10+ names was five lines tall). A member whose account is
 * 封禁 or 已删除 keeps nothing for the team: their name is struck through and says so (「（已删除）」, and the tooltip),
 * so a torrent assigned only to them reads as having no active keeper — as 自动分配 treats it.
 */
import { useState } from 'react'
import { CloseOutlined } from '@ant-design/icons'
import { Flex, Tag, Tooltip } from 'antd'
import type { Assignee } from '@shared/entities'
import { inactiveAccountNames } from '@shared/enums'
import { formatDateTime } from '@renderer/utils/format'

/** Names shown before 「+N」. */
export const SHOWN_ASSIGNEES = 4

/** An assignee's inactive state's name (undefined: 正常, or a server that does not send it). */
const inactiveState = (assignee: Pick<Assignee, 'status'>) =>
  assignee.status === undefined ? undefined : inactiveAccountNames[assignee.status]

function AssigneeName({ assignee }: { assignee: Assignee }) {
  const state = inactiveState(assignee)
  if (!state) return <>{assignee.username}</>
  return (
    <>
      <span style={{ textDecoration: 'line-through' }}>{assignee.username}</span>（{state}）
    </>
  )
}

function tooltipOf(assignee: Assignee): string {
  const assigned = `分配于 ${formatDateTime(assignee.assignedAt)}`
  const state = inactiveState(assignee)
  return state ? `账号${state}，不再为本组保种：这项分配不算有人保种（自动分配会另派保种员）。${assigned}` : assigned
}

export interface AssigneeTagsProps {
  /** undefined: not loaded (the call failed). */
  assignees: Assignee[] | undefined
  onRemove(assignee: Assignee): void
}

export default function AssigneeTags({ assignees, onRemove }: AssigneeTagsProps) {
  const [expanded, setExpanded] = useState(false)
  if (!assignees?.length) return <span>-</span>
  // One more name rather than 「+1」.
  const collapsed = !expanded && assignees.length > SHOWN_ASSIGNEES + 1
  const shown = collapsed ? assignees.slice(0, SHOWN_ASSIGNEES) : assignees
  return (
    <Flex wrap gap={4} data-testid="assignees">
      {shown.map((assignee) => (
        <Tooltip key={assignee.userId} title={tooltipOf(assignee)}>
          <Tag
            style={{ marginInlineEnd: 0 }}
            data-inactive={inactiveState(assignee) ? true : undefined}
            closable
            closeIcon={<CloseOutlined aria-label={`移除 ${assignee.username} 的分配`} />}
            onClose={(event) => {
              // The tag stays until the member is really removed (after the confirmation).
              event.preventDefault()
              onRemove(assignee)
            }}
          >
            <AssigneeName assignee={assignee} />
          </Tag>
        </Tooltip>
      ))}
      {assignees.length > SHOWN_ASSIGNEES + 1 && (
        <Tooltip
          title={
            collapsed
              ? assignees
                  .slice(SHOWN_ASSIGNEES)
                  .map((a) => (inactiveState(a) ? `${a.username}（${inactiveState(a)}）` : a.username))
                  .join('、')
              : undefined
          }
        >
          <Tag
            role="button"
            tabIndex={0}
            data-testid="assignees-toggle"
            style={{ marginInlineEnd: 0, cursor: 'pointer', borderStyle: 'dashed' }}
            onClick={() => setExpanded(collapsed)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' || event.key === ' ') {
                event.preventDefault()
                setExpanded(collapsed)
              }
            }}
          >
            {collapsed ? `+${assignees.length - SHOWN_ASSIGNEES}` : '收起'}
          </Tag>
        </Tooltip>
      )}
    </Flex>
  )
}
