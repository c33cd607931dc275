/**
 * 任务分配: official torrents (torrent/page, seedType 1) with their assignment and completion
 * labels and who each is assigned to (task/assignees; one member is removed from its tag, confirmed).
 * Select rows → `分配给…` (members who can seed, with their load) or `取消分配` (every member,
 * confirmed); `自动分配` previews a balanced plan before committing it.
 */
import { useCallback, useMemo, useRef, useState } from 'react'
import { ThunderboltOutlined, UserAddOutlined, UserDeleteOutlined } from '@ant-design/icons'
import { App, Button, Form } from 'antd'
import type { Assignee, Torrent } from '@shared/entities'
import { sortableFields } from '@shared/endpoints'
import { AssignmentLabel, SeedType } from '@shared/enums'
import DataTable, { type DataTableActions, type DataTableColumn } from '@renderer/components/DataTable'
import DisabledReason from '@renderer/components/DisabledReason'
import FormModal from '@renderer/components/FormModal'
import { submitOnEnter } from '@renderer/utils/submitOnEnter'
import { READ_ONCE, useLoad, useOpening } from '@renderer/hooks/useApi'
import {
  assignmentColumn,
  completionColumn,
  seedersColumn,
  torrentNameColumn,
  torrentSizeColumn,
  KEEPERS_HELP,
} from '@renderer/components/torrentColumns'
import type { TableData, TableParams, TableSort } from '@renderer/services/request'
import { assignTasks, keeperOptions, torrentAssignees, unassignTasks } from '@renderer/services/tasks'
import { pageTorrents } from '@renderer/services/torrents'
import { toastSuccess } from '@renderer/utils/feedback'
import AssigneeTags from './AssigneeTags'
import AutoAssignModal from './AutoAssignModal'
import MemberPicker, { MEMBERS_FAILED } from './MemberPicker'
import { formatCount } from '@renderer/utils/format'

export const TASK_ASSIGNMENT_TABLE_KEY = 'taskAssignment.torrents'
const OFFICIAL = { seedType: SeedType.Official }

/** A torrent of the page with who it is assigned to (undefined when that call failed). */
export type AssignmentRow = Torrent & { assignees?: Assignee[] }

/** Whether a torrent has anyone assigned: its members when known, else its 分配状态. */
const hasAssignment = (torrent: AssignmentRow) =>
  torrent.assignees ? torrent.assignees.length > 0 : torrent.assigned === AssignmentLabel.Assigned

/** One page of official torrents, then their members in one call. */
async function pageWithAssignees(params: TableParams, sort: TableSort | undefined): Promise<TableData<AssignmentRow>> {
  const page = await pageTorrents(params, sort)
  if (!page.success || page.data.length === 0) return page
  const assignees = await torrentAssignees(
    page.data.map((torrent) => torrent.id),
    { silent: true },
  ).catch(() => null)
  if (!assignees) return page
  return { ...page, data: page.data.map((torrent) => ({ ...torrent, assignees: assignees.filter((a) => a.torrentId === torrent.id) })) }
}

// With the selection column the widths fit a 1280 px window (974 px), 保种员 and 做种数 included. 分配状态
// starts hidden: the 保种员 column already shows who (if anyone) a torrent is assigned to, and its filter
// stays in the search form.
const baseColumns: DataTableColumn<AssignmentRow>[] = [
  torrentNameColumn(260),
  torrentSizeColumn(96),
  {
    title: '保种人数',
    onHeaderCell: () => ({ title: KEEPERS_HELP }),
    dataIndex: 'keepers',
    width: 96,
    align: 'right',
    render: (_, torrent) => (
      <span style={{ color: torrent.keepers < torrent.targetKeepers ? 'var(--ant-color-warning)' : undefined }}>
        {torrent.keepers} / {torrent.targetKeepers}
      </span>
    ),
  },
  completionColumn(110, true),
  assignmentColumn(90, true),
  seedersColumn(80),
  { title: '制作组', dataIndex: 'team', width: 120, hiddenByDefault: true, render: (team: string | null) => team ?? '-' },
]

export default function TaskAssignmentPage() {
  const { modal } = App.useApp()
  const table = useRef<DataTableActions>(null)
  const [selected, setSelected] = useState<number[]>([])
  const [assigning, setAssigning] = useState(false)
  const [autoOpen, setAutoOpen] = useState(false)
  const [assignForm] = Form.useForm<{ userIds: number[] }>()
  // The rows as last read (any page), so the toolbar knows whether the selection has anything to unassign.
  const [known, setKnown] = useState<ReadonlyMap<number, AssignmentRow>>(() => new Map())
  const request = useCallback(async (params: TableParams, sort: TableSort | undefined) => {
    const page = await pageWithAssignees(params, sort)
    if (page.success) setKnown((before) => new Map([...before, ...page.data.map((row) => [row.id, row] as const)]))
    return page
  }, [])
  // A selected row not read (yet) may have assignments: 取消分配 stays on for it, and the server answers.
  const unassignReason =
    selected.length === 0
      ? '先勾选要取消分配的种子'
      : selected.some((id) => {
            const row = known.get(id)
            return !row || hasAssignment(row)
          })
        ? null
        : '选中的种子都还没有分配给保种员，没有可取消的分配'
  // The site refuses a banned torrent's announces, so nobody can keep it (domain.md §3) and the server refuses to assign
  // it: said before members are picked, not after. A selected row not read (yet) is left to the server.
  const bannedSelected = selected.filter((id) => known.get(id)?.banned).length
  const assignReason =
    selected.length === 0
      ? '先勾选要分配的种子'
      : bannedSelected > 0
        ? `选中的种子中有 ${formatCount(bannedSelected)} 个已被站点禁止（无法做种），不能分配：请取消勾选`
        : null
  const reload = () => {
    setSelected([])
    table.current?.reload()
  }

  // Read afresh on each opening: the loads shown change with each assignment. A failure (toasted) offers nobody, and says why.
  const opening = useOpening(assigning)
  const { data: members = null } = useLoad(
    'taskAssignment.members',
    opening,
    () => keeperOptions().catch((): typeof MEMBERS_FAILED => MEMBERS_FAILED),
    READ_ONCE,
  )

  // Stable (refs and `modal` only), so the columns below are built once.
  const confirmRemoveOne = useCallback(
    (torrent: AssignmentRow, assignee: Assignee) =>
      modal.confirm({
        title: `取消 ${assignee.username} 的分配？`,
        content: `种子：${torrent.name}。只移除 ${assignee.username} 这一项分配，其他保种员不受影响，做种记录保留。`,
        okText: '取消分配',
        okButtonProps: { danger: true },
        cancelText: '返回',
        onOk: async () => {
          try {
            await unassignTasks([torrent.id], [assignee.userId])
            toastSuccess(`已取消 ${assignee.username} 的分配`)
            table.current?.reload()
          } catch {
            // request() showed the server's message
          }
        },
      }),
    [modal],
  )

  const columns = useMemo<DataTableColumn<AssignmentRow>[]>(() => {
    const assigneeColumn: DataTableColumn<AssignmentRow> = {
      title: '保种员',
      key: 'assignees',
      width: 300,
      render: (_, torrent) => <AssigneeTags assignees={torrent.assignees} onRemove={(assignee) => confirmRemoveOne(torrent, assignee)} />,
    }
    // After 分配状态: what is assigned, then to whom.
    const at = baseColumns.findIndex((column) => column.dataIndex === 'assigned') + 1
    return [...baseColumns.slice(0, at), assigneeColumn, ...baseColumns.slice(at)]
  }, [confirmRemoveOne])

  const confirmUnassign = () =>
    modal.confirm({
      title: `取消 ${selected.length} 个种子的分配？`,
      content: '这些种子的全部保种员分配都会被取消（做种记录保留）。只移除一位保种员，请点「保种员」列中其名字旁的 ×。',
      okText: '取消分配',
      okButtonProps: { danger: true },
      cancelText: '返回',
      onOk: async () => {
        try {
          const { removed } = await unassignTasks(selected)
          toastSuccess(`已取消 ${formatCount(removed)} 项分配`)
          reload()
        } catch {
          // request() showed the server's message
        }
      },
    })

  // Plain JSX: DataTable only renders it, and a memo here would have to list every closure it uses.
  const toolbar = (
    <>
      <DisabledReason reason={assignReason}>
        <Button icon={<UserAddOutlined />} disabled={assignReason !== null} onClick={() => setAssigning(true)}>
          分配给…
        </Button>
      </DisabledReason>
      <DisabledReason reason={unassignReason}>
        <Button icon={<UserDeleteOutlined />} danger disabled={unassignReason !== null} onClick={confirmUnassign}>
          取消分配
        </Button>
      </DisabledReason>
      <Button type="primary" icon={<ThunderboltOutlined />} onClick={() => setAutoOpen(true)}>
        自动分配
      </Button>
    </>
  )

  return (
    <>
      <DataTable<AssignmentRow>
        ref={table}
        tableKey={TASK_ASSIGNMENT_TABLE_KEY}
        title={selected.length ? `官种（已选 ${selected.length} 个）` : '官种'}
        rowKey="id"
        columns={columns}
        sortableFields={sortableFields.torrentPage}
        params={OFFICIAL}
        request={request}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]), preserveSelectedRowKeys: true }}
        toolbar={toolbar}
      />
      <FormModal<{ userIds: number[] }>
        form={assignForm}
        open={assigning}
        title={`分配 ${selected.length} 个种子`}
        okText="分配"
        onClose={() => setAssigning(false)}
        onSubmit={async ({ userIds }) => {
          const { created, existed } = await assignTasks(selected, userIds, { silent: true })
          toastSuccess(
            existed ? `已新建 ${formatCount(created)} 项分配，${formatCount(existed)} 项原已存在` : `已新建 ${formatCount(created)} 项分配`,
          )
          reload()
        }}
      >
        <div onKeyDownCapture={submitOnEnter(assignForm, 'userIds')}>
          <Form.Item
            name="userIds"
            label="保种员"
            rules={[{ required: true, message: '请选择保种员' }]}
            extra="只列出状态正常且绑定了站点 UID 的保种员；每个选中的种子都会分配给每位选中的保种员"
          >
            <MemberPicker members={members} />
          </Form.Item>
        </div>
      </FormModal>
      <AutoAssignModal open={autoOpen} onClose={() => setAutoOpen(false)} onAssigned={reload} />
    </>
  )
}
