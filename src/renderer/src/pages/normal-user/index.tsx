/**
 * 保种员: the team's members (page-normal) with create, edit, ban/unban, delete (soft), restore
 * a deleted member and reset password; a name opens the member detail drawer (account, 30-day chart, seed records).
 */
import { useCallback, useMemo, useRef, useState } from 'react'
import { PlusOutlined } from '@ant-design/icons'
import { Button, Form, Input, Popconfirm, Space, Typography } from 'antd'
import type { User } from '@shared/entities'
import { sortableFields } from '@shared/endpoints'
import { AccountStatus, accountStatusLabels } from '@shared/enums'
import DataTable, { type DataTableActions, type DataTableColumn } from '@renderer/components/DataTable'
import FormModal from '@renderer/components/FormModal'
import { AccountStatusTag } from '@renderer/components/StatusTags'
import type { TableParams, TableSort } from '@renderer/services/request'
import { createUser, pageNormal, resetPassword, setUserStatus, updateUser } from '@renderer/services/users'
import { enumOptions } from '@renderer/utils/enumOptions'
import { toastSuccess } from '@renderer/utils/feedback'
import { passwordLength, remarkMaxLength, usernameLength } from '@renderer/utils/formLimits'
import { formatBytes, formatDateTime } from '@renderer/utils/format'
import MemberDetail from './MemberDetail'
import SiteUserSelect from './SiteUserSelect'

export const NORMAL_USER_TABLE_KEY = 'normalUser.list'

interface CreateValues {
  username: string
  password: string
  siteUid?: number | null
  remark?: string
}
interface EditValues {
  siteUid?: number | null
  remark?: string
}

/** The search form sends text; the server wants the site uid as a number. */
export function requestMembers(params: TableParams, sort?: TableSort) {
  const { siteUid, ...rest } = params
  const uid = typeof siteUid === 'string' && /^\d+$/.test(siteUid.trim()) ? Number(siteUid.trim()) : siteUid
  return pageNormal(uid === undefined ? rest : { ...rest, siteUid: uid }, sort)
}

/** `memberId`: the member being edited (their own site user is not shown as taken). */
const siteUidField = (memberId?: number) => (
  <Form.Item
    name="siteUid"
    label="站点 UID"
    extra="会员在站点上的用户 ID，用于匹配做种数据：按站点用户名或 UID 搜索已同步的站点用户，也可直接输入 UID"
  >
    <SiteUserSelect memberId={memberId} />
  </Form.Item>
)
const remarkField = (
  <Form.Item name="remark" label="备注" rules={[{ max: remarkMaxLength }]}>
    <Input.TextArea rows={2} maxLength={remarkMaxLength} placeholder="可选" />
  </Form.Item>
)

export default function NormalUserPage() {
  const table = useRef<DataTableActions>(null)
  const [creating, setCreating] = useState(false)
  const [editing, setEditing] = useState<User | null>(null)
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
      {
        title: '用户名',
        dataIndex: 'username',
        width: 160,
        ellipsis: true,
        search: { type: 'text', placeholder: '用户名包含的文字' },
        render: (_, user) => (
          <Typography.Link onClick={() => setDetailId(user.id)} title="查看详情">
            {user.username}
          </Typography.Link>
        ),
      },
      {
        title: '站点 UID',
        dataIndex: 'siteUid',
        width: 100,
        search: { type: 'text', placeholder: '完整的站点 UID' },
        render: (uid: number | null) => uid ?? '-',
      },
      {
        title: '账号状态',
        dataIndex: 'status',
        width: 96,
        search: { type: 'select', options: enumOptions(accountStatusLabels) },
        render: (_, user) => <AccountStatusTag status={user.status} />,
      },
      { title: '做种数', dataIndex: 'seedingCount', width: 84, align: 'right' },
      { title: '做种体积', dataIndex: 'seedingSize', width: 110, align: 'right', render: (size: number) => formatBytes(size) },
      { title: '已分配', dataIndex: 'assignedCount', width: 84, align: 'right' },
      { title: '加入时间', dataIndex: 'createdAt', width: 140, render: (time: string) => formatDateTime(time) },
      { title: '最近登录', dataIndex: 'lastLoginAt', width: 140, render: (time: string | null) => formatDateTime(time) },
      { title: '备注', dataIndex: 'remark', width: 160, ellipsis: true, hiddenByDefault: true, render: (remark: string) => remark || '-' },
      {
        title: '操作',
        key: 'actions',
        width: 220,
        fixed: 'right',
        render: (_, user) => (
          <Space size={0} wrap={false}>
            <Button type="link" size="small" onClick={() => setEditing(user)}>
              编辑
            </Button>
            {user.status === AccountStatus.Banned ? (
              <Popconfirm
                title={`解封 ${user.username}？`}
                description="解封后该账号可以重新登录。"
                okText="解封"
                cancelText="取消"
                onConfirm={() => changeStatus(user, AccountStatus.Normal, '已解封')}
              >
                <Button type="link" size="small">
                  解封
                </Button>
              </Popconfirm>
            ) : user.status === AccountStatus.Normal ? (
              <Popconfirm
                title={`封禁 ${user.username}？`}
                description="封禁后该账号立即退出登录，且不能再登录。"
                okText="封禁"
                cancelText="取消"
                okButtonProps={{ danger: true }}
                onConfirm={() => changeStatus(user, AccountStatus.Banned, '已封禁')}
              >
                <Button type="link" size="small">
                  封禁
                </Button>
              </Popconfirm>
            ) : (
              <Popconfirm
                title={`恢复 ${user.username}？`}
                description="恢复后该账号状态为正常，可以用原密码登录。"
                okText="恢复"
                cancelText="取消"
                onConfirm={() => changeStatus(user, AccountStatus.Normal, '已恢复')}
              >
                <Button type="link" size="small">
                  恢复
                </Button>
              </Popconfirm>
            )}
            {/* A deleted account cannot log in: a new password for it would be of no use until it is restored. */}
            {user.status !== AccountStatus.Deleted && (
              <Button type="link" size="small" onClick={() => setResetting(user)}>
                重置密码
              </Button>
            )}
            {user.status !== AccountStatus.Deleted && (
              <Popconfirm
                title={`删除 ${user.username}？`}
                description="账号将标记为已删除并立即退出登录。"
                okText="删除"
                cancelText="取消"
                okButtonProps={{ danger: true }}
                onConfirm={() => changeStatus(user, AccountStatus.Deleted, '已删除')}
              >
                <Button type="link" size="small" danger>
                  删除
                </Button>
              </Popconfirm>
            )}
          </Space>
        ),
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
        request={requestMembers}
        toolbar={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
            新建保种员
          </Button>
        }
      />

      <FormModal<CreateValues>
        open={creating}
        title="新建保种员"
        okText="创建"
        onClose={() => setCreating(false)}
        onSubmit={async (values) => {
          const user = await createUser(
            {
              username: values.username.trim(),
              password: values.password,
              siteUid: values.siteUid ?? null,
              remark: values.remark?.trim() ?? '',
            },
            { silent: true },
          )
          toastSuccess(`已创建保种员 ${user.username}`)
          reload()
        }}
      >
        <Form.Item name="username" label="用户名" rules={[{ required: true, whitespace: true }, usernameLength]}>
          <Input autoComplete="off" placeholder="2–32 个字符：文字、数字、下划线、点、短横线" />
        </Form.Item>
        <Form.Item
          name="password"
          label="初始密码"
          rules={[{ required: true }, passwordLength]}
          extra={`至少 ${passwordLength.min} 个字符，请告知保种员登录后自行修改`}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        {siteUidField()}
        {remarkField}
      </FormModal>

      <FormModal<EditValues>
        open={editing !== null}
        title={`编辑保种员 · ${editing?.username ?? ''}`}
        okText="保存"
        initialValues={{ siteUid: editing?.siteUid ?? null, remark: editing?.remark ?? '' }}
        onClose={() => setEditing(null)}
        onSubmit={async (values) => {
          await updateUser({ id: editing!.id, siteUid: values.siteUid ?? null, remark: values.remark?.trim() ?? '' }, { silent: true })
          toastSuccess('已保存')
          reload()
        }}
      >
        {siteUidField(editing?.id)}
        {remarkField}
      </FormModal>

      <FormModal<{ password: string }>
        open={resetting !== null}
        title={`重置密码 · ${resetting?.username ?? ''}`}
        okText="重置"
        danger
        onClose={() => setResetting(null)}
        onSubmit={async (values) => {
          await resetPassword(resetting!.id, values.password, { silent: true })
          toastSuccess('密码已重置，该账号需要用新密码重新登录')
        }}
      >
        <Form.Item name="password" label="新密码" rules={[{ required: true }, passwordLength]} extra="重置后该账号的登录会话全部失效">
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </FormModal>

      <MemberDetail userId={detailId} onClose={() => setDetailId(null)} />
    </>
  )
}
