/**
 * The 分配给… picker: members who can keep torrents (status 正常 with a site UID), each with their
 * load, so the admin can spread the work. While the list is open the field reserves its height
 * below, so the list pushes the modal's buttons down instead of covering 分配.
 */
import { useState } from 'react'
import { Flex, Select, Typography } from 'antd'
import type { KeeperOption } from '@shared/entities'
import { formatCount } from '@renderer/utils/format'

/** Height of the open list (antd's default is 256; keep the modal short on a laptop). */
const LIST_HEIGHT = 224
/** The open list's height with its padding and offset. */
const RESERVED = LIST_HEIGHT + 16

/** The list could not be read (the failure was toasted). */
export const MEMBERS_FAILED = 'failed'

export interface MemberPickerProps {
  /** null: loading. */
  members: KeeperOption[] | null | typeof MEMBERS_FAILED
  value?: number[]
  onChange?(value: number[]): void
  id?: string
}

export const loadText = (member: KeeperOption) => `已分配 ${formatCount(member.assignedCount)} · 做种 ${formatCount(member.seedingCount)}`

export default function MemberPicker({ members: loaded, value, onChange, id }: MemberPickerProps) {
  const [open, setOpen] = useState(false)
  const members = loaded === MEMBERS_FAILED ? [] : loaded
  const byId = new Map((members ?? []).map((member) => [member.id, member]))
  return (
    <div style={{ paddingBottom: open ? RESERVED : 0 }} data-testid="member-picker">
      <Select<number[]>
        id={id}
        mode="multiple"
        value={value}
        onChange={onChange}
        showSearch={{ optionFilterProp: 'label' }}
        loading={members === null}
        placeholder="搜索用户名，可多选"
        listHeight={LIST_HEIGHT}
        onOpenChange={setOpen}
        notFoundContent={
          members === null
            ? '加载中…'
            : // A list that could not be read says so: not that no member may be assigned.
              loaded === MEMBERS_FAILED
              ? '保种员列表加载失败，请关闭后重新打开再试'
              : '没有可分配的保种员（需状态正常并绑定站点 UID）'
        }
        options={(members ?? []).map((member) => ({ label: member.username, value: member.id }))}
        optionRender={(option) => {
          const member = byId.get(option.value as number)
          return (
            <Flex justify="space-between" gap={8}>
              <span>
                {member?.username}
                {member?.role === 'admin' && <Typography.Text type="secondary">（管理员）</Typography.Text>}
              </span>
              {member && <Typography.Text type="secondary">{loadText(member)}</Typography.Text>}
            </Flex>
          )
        }}
      />
    </div>
  )
}
