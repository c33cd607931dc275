/**
 * 任务分配: official torrents (torrent/page, seedType 1) with their assignment and completion
 * labels. Select rows → `分配给…` (members from the user options) or `取消分配` (confirmed);
 * `自动分配` previews a balanced plan before committing it.
 */
import { useMemo, useRef, useState } from 'react'
import { ThunderboltOutlined, UserAddOutlined, UserDeleteOutlined } from '@ant-design/icons'
import { App, Button, Form, Select } from 'antd'
import type { Torrent, UserOption } from '@shared/entities'
import { sortableFields } from '@shared/endpoints'
import { assignmentLabels, completionLabels } from '@shared/enums'
import DataTable, { type DataTableActions, type DataTableColumn } from '@renderer/components/DataTable'
import FormModal from '@renderer/components/FormModal'
import { AssignmentTag, CompletionTag } from '@renderer/components/StatusTags'
import { assignTasks, unassignTasks } from '@renderer/services/tasks'
import { pageTorrents } from '@renderer/services/torrents'
import { userOptions } from '@renderer/services/user'
import { enumOptions } from '@renderer/utils/enumOptions'
import { toastSuccess } from '@renderer/utils/feedback'
import { formatBytes } from '@renderer/utils/format'
import AutoAssignModal from './AutoAssignModal'

export const TASK_ASSIGNMENT_TABLE_KEY = 'taskAssignment.torrents'
const OFFICIAL = { seedType: 1 }

const columns: DataTableColumn<Torrent>[] = [
  { title: '种子名称', dataIndex: 'name', width: 320, ellipsis: true, search: { type: 'text', placeholder: '名称包含的文字' } },
  { title: '体积', dataIndex: 'size', width: 110, align: 'right', render: (size: number) => formatBytes(size) },
  {
    title: '保种人数',
    dataIndex: 'keepers',
    width: 110,
    align: 'right',
    render: (_, torrent) => (
      <span style={{ color: torrent.keepers < torrent.targetKeepers ? 'var(--ant-color-warning)' : undefined }}>
        {torrent.keepers} / {torrent.targetKeepers}
      </span>
    ),
  },
  {
    title: '完成情况',
    dataIndex: 'completion',
    width: 120,
    search: { type: 'select', options: enumOptions(completionLabels).filter((option) => option.value <= 2) },
    render: (_, torrent) => <CompletionTag completion={torrent.completion} />,
  },
  {
    title: '分配状态',
    dataIndex: 'assigned',
    width: 100,
    search: { type: 'select', options: enumOptions(assignmentLabels) },
    render: (_, torrent) => <AssignmentTag assigned={torrent.assigned} />,
  },
  { title: '做种数', dataIndex: 'seeders', width: 90, align: 'right' },
  { title: '制作组', dataIndex: 'team', width: 120, hiddenByDefault: true, render: (team: string | null) => team ?? '-' },
]

export default function TaskAssignmentPage() {
  const { modal } = App.useApp()
  const table = useRef<DataTableActions>(null)
  const [selected, setSelected] = useState<number[]>([])
  const [assigning, setAssigning] = useState(false)
  const [autoOpen, setAutoOpen] = useState(false)
  const [members, setMembers] = useState<UserOption[] | null>(null)
  const reload = () => {
    setSelected([])
    table.current?.reload()
  }

  const openAssign = async () => {
    setAssigning(true)
    if (!members) setMembers(await userOptions())
  }

  const confirmUnassign = () =>
    modal.confirm({
      title: `取消 ${selected.length} 个种子的分配？`,
      content: '这些种子的全部保种员分配都会被取消（做种记录保留）。',
      okText: '取消分配',
      okButtonProps: { danger: true },
      cancelText: '返回',
      onOk: () =>
        unassignTasks(selected).then(
          ({ removed }) => {
            toastSuccess(`已取消 ${removed} 项分配`)
            reload()
          },
          () => undefined, // the server's msg was toasted
        ),
    })

  const toolbar = useMemo(
    () => (
      <>
        <Button icon={<UserAddOutlined />} disabled={selected.length === 0} onClick={() => void openAssign()}>
          分配给…
        </Button>
        <Button icon={<UserDeleteOutlined />} danger disabled={selected.length === 0} onClick={confirmUnassign}>
          取消分配
        </Button>
        <Button type="primary" icon={<ThunderboltOutlined />} onClick={() => setAutoOpen(true)}>
          自动分配
        </Button>
      </>
    ),
    [selected, members],
  )

  return (
    <>
      <DataTable<Torrent>
        ref={table}
        tableKey={TASK_ASSIGNMENT_TABLE_KEY}
        title={selected.length ? `官种（已选 ${selected.length} 个）` : '官种'}
        rowKey="id"
        columns={columns}
        sortableFields={sortableFields.torrentPage}
        params={OFFICIAL}
        request={(params, sort) => pageTorrents(params, sort)}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]), preserveSelectedRowKeys: true }}
        toolbar={toolbar}
      />
      <FormModal<{ userIds: number[] }>
        open={assigning}
        title={`分配 ${selected.length} 个种子`}
        okText="分配"
        onClose={() => setAssigning(false)}
        onSubmit={async ({ userIds }) => {
          const { created, existed } = await assignTasks(selected, userIds, { silent: true })
          toastSuccess(existed ? `已新建 ${created} 项分配，${existed} 项原已存在` : `已新建 ${created} 项分配`)
          reload()
        }}
      >
        <Form.Item name="userIds" label="保种员" rules={[{ required: true, message: '请选择保种员' }]} extra="每个选中的种子都会分配给每位选中的保种员">
          <Select
            mode="multiple"
            showSearch={{ optionFilterProp: 'label' }}
            loading={members === null}
            placeholder="搜索用户名，可多选"
            options={(members ?? []).map((member) => ({ label: member.username, value: member.id }))}
          />
        </Form.Item>
      </FormModal>
      <AutoAssignModal open={autoOpen} onClose={() => setAutoOpen(false)} onAssigned={reload} />
    </>
  )
}
