/**
 * 保种员: the team's members (page-normal) with create, edit, ban/unban, delete (soft), restore
 * a deleted member and reset password; a name opens the member detail drawer (account, 30-day chart, seed records).
 */
import { useCallback, useMemo, useRef, useState } from 'react'
import { PlusOutlined } from '@ant-design/icons'
import { Button, Typography } from 'antd'
import type { User } from '@shared/entities'
import { sortableFields } from '@shared/endpoints'
import { accountStatusLabels, type AccountStatus } from '@shared/enums'
import DataTable, { type DataTableActions, type DataTableColumn } from '@renderer/components/DataTable'
import { dateTimeColumn } from '@renderer/components/dateTimeColumn'
import { AccountStatusTag } from '@renderer/components/StatusTags'
import { pageNormal, setUserStatus } from '@renderer/services/users'
import { useCurrentUser } from '@renderer/stores/user'
import { enumOptions } from '@renderer/utils/enumOptions'
import { searchLimits } from '@renderer/utils/formLimits'
import { toastSuccess } from '@renderer/utils/feedback'
import { formatBytes, formatCount } from '@renderer/utils/format'
import { SEEDING_COUNT_HELP } from '@renderer/components/seedingCountHelp'
import MemberActions from './MemberActions'
import MemberDetail from './MemberDetail'
import { CreateMemberModal, EditMemberModal, readMemberDrafts, ResetPasswordModal, type EditedMember } from './MemberForms'
import { keyboardOpen } from '@renderer/utils/keyboardOpen'

export const NORMAL_USER_TABLE_KEY = 'normalUser.list'

/**
 * The member's columns; the page adds the actions column. With it they add up to 928 px, within
 * the 998 px a 1280 px window gives the table, so 最近登录 is not cut off by the fixed 操作 column:
 * 加入时间 is shown through the column settings (and in the member's detail).
 */
function memberColumns(openDetail: (id: number) => void): DataTableColumn<User>[] {
  return [
    {
      title: '用户名',
      dataIndex: 'username',
      width: 122,
      ellipsis: true,
      search: { type: 'text', placeholder: '用户名包含的文字', maxLength: searchLimits.memberName },
      render: (_, user) => (
        <Typography.Link onClick={() => openDetail(user.id)} title="查看详情" role="button" {...keyboardOpen(() => openDetail(user.id))}>
          {user.username}
        </Typography.Link>
      ),
    },
    {
      title: '站点 UID',
      dataIndex: 'siteUid',
      width: 96,
      search: { type: 'integer', placeholder: '完整的站点 UID', ...searchLimits.memberSiteUid },
      render: (uid: number | null) => uid ?? '-',
    },
    {
      title: '账号状态',
      dataIndex: 'status',
      width: 92,
      search: { type: 'select', options: enumOptions(accountStatusLabels) },
      render: (_, user) => <AccountStatusTag status={user.status} />,
    },
    {
      title: '做种数',
      dataIndex: 'seedingCount',
      width: 76,
      align: 'right',
      onHeaderCell: () => ({ title: SEEDING_COUNT_HELP }),
      render: (count: number) => formatCount(count),
    },
    { title: '做种体积', dataIndex: 'seedingSize', width: 104, align: 'right', render: (size: number) => formatBytes(size) },
    { title: '已分配', dataIndex: 'assignedCount', width: 76, align: 'right', render: (count: number) => formatCount(count) },
    dateTimeColumn<User>('加入时间', 'createdAt', { hiddenByDefault: true }),
    dateTimeColumn<User>('最近登录', 'lastLoginAt'),
    { title: '备注', dataIndex: 'remark', width: 160, ellipsis: true, hiddenByDefault: true, render: (remark: string) => remark || '-' },
  ]
}

export default function NormalUserPage() {
  const table = useRef<DataTableActions>(null)
  // A dialog left with a draft (its save refused because the login ended) opens again with it after the new login.
  const userId = useCurrentUser()?.id ?? 0
  const [drafts] = useState(() => readMemberDrafts(userId))
  const [creating, setCreating] = useState(drafts.create && drafts.edit === null)
  const [editing, setEditing] = useState<EditedMember | null>(drafts.edit)
  const [resetting, setResetting] = useState<User | null>(null)
  const [detailId, setDetailId] = useState<number | null>(null)
  const reload = useCallback(() => table.current?.reload(), [])

  // A refused change was toasted (the server's msg) by the request wrapper; nothing else to do.
  // Stable (it reaches the table through its ref), so the columns below are built once.
  const changeStatus = useCallback(
    async (user: User, status: AccountStatus, done: string) => {
      try {
        await setUserStatus(user.id, status)
        toastSuccess(done)
        reload()
      } catch {
        // request() showed the server's message
      }
    },
    [reload],
  )
  const columns = useMemo<DataTableColumn<User>[]>(
    () => [
      ...memberColumns(setDetailId),
      {
        title: '操作',
        key: 'actions',
        // 编辑 封禁 重置密码 删除: four small link buttons (text and padding) and the cell's padding.
        width: 212,
        fixed: 'right',
        render: (_, user) => <MemberActions user={user} handlers={{ edit: setEditing, resetPassword: setResetting, changeStatus }} />,
      },
    ],
    [changeStatus],
  )

  return (
    <>
      <DataTable<User>
        ref={table}
        tableKey={NORMAL_USER_TABLE_KEY}
        title="保种员"
        rowKey="id"
        columns={columns}
        sortableFields={sortableFields.pageNormal}
        request={pageNormal}
        toolbar={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
            新建保种员
          </Button>
        }
      />
      <CreateMemberModal open={creating} onClose={() => setCreating(false)} onCreated={reload} />
      <EditMemberModal member={editing} onClose={() => setEditing(null)} onSaved={reload} />
      <ResetPasswordModal member={resetting} onClose={() => setResetting(null)} />
      <MemberDetail userId={detailId} onClose={() => setDetailId(null)} />
    </>
  )
}
