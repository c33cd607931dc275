/**
 * 管理员: the admins (page-admin). `添加管理员` picks a member from the user options and makes
 * them an admin; `移除` (confirmed) takes the role away. The server refuses the last admin and
 * yourself (409) and its message is shown; your own row's 移除 is disabled up front.
 */
import { useRef, useState, type KeyboardEvent } from 'react'
import { UserAddOutlined } from '@ant-design/icons'
import { Button, Form, Popconfirm, Select, Tooltip } from 'antd'
import type { User } from '@shared/entities'
import { sortableFields } from '@shared/endpoints'
import DataTable, { type DataTableActions, type DataTableColumn } from '@renderer/components/DataTable'
import { dateTimeColumn } from '@renderer/components/dateTimeColumn'
import FormModal from '@renderer/components/FormModal'
import { READ_ONCE, useLoad, useOpening } from '@renderer/hooks/useApi'
import { addAdmin, delAdmin, pageAdmin } from '@renderer/services/users'
import { userOptions } from '@renderer/services/user'
import { useCurrentUser } from '@renderer/stores/user'
import { toastSuccess } from '@renderer/utils/feedback'

export const ADMIN_USER_TABLE_KEY = 'adminUser.list'

export default function AdminUserPage() {
  const me = useCurrentUser()
  const table = useRef<DataTableActions>(null)
  const [adding, setAdding] = useState(false)
  const [addForm] = Form.useForm<{ userId: number }>()
  // Each opening reads the members and the current admins (left out of the picker) anew.
  const opening = useOpening(adding)
  const { data: picker, mutate: mutatePicker } = useLoad(
    'adminUser.picker',
    opening,
    async () => {
      const [all, current] = await Promise.all([userOptions(), pageAdmin({ current: 1, pageSize: 200 }, null, { silent: true })])
      return { options: all, admins: current.data.map((user) => user.id) }
    },
    READ_ONCE,
  )
  const options = picker?.options ?? null
  const admins = picker?.admins ?? []

  // A refusal (last admin, yourself: 409) shows the server's msg as a toast.
  const remove = async (user: User) => {
    try {
      await delAdmin(user.id)
      toastSuccess(`已移除管理员 ${user.username}`)
      table.current?.reload()
    } catch {
      // request() showed the server's message
    }
  }

  const columns: DataTableColumn<User>[] = [
    { title: '用户名', dataIndex: 'username', width: 180, ellipsis: true },
    { title: '站点 UID', dataIndex: 'siteUid', width: 120, render: (uid: number | null) => uid ?? '-' },
    dateTimeColumn<User>('成为管理员', 'adminSince'),
    dateTimeColumn<User>('最近登录', 'lastLoginAt'),
    dateTimeColumn<User>('加入时间', 'createdAt', { hiddenByDefault: true }),
    {
      title: '操作',
      key: 'actions',
      width: 100,
      render: (_, user) =>
        user.id === me?.id ? (
          <Tooltip title="不能移除自己的管理员身份">
            <Button type="link" size="small" danger disabled>
              移除
            </Button>
          </Tooltip>
        ) : (
          <Popconfirm
            title={`移除管理员 ${user.username}？`}
            description="移除后该账号成为普通保种员，下次操作时生效。"
            okText="移除"
            cancelText="取消"
            okButtonProps={{ danger: true }}
            onConfirm={() => remove(user)}
          >
            <Button type="link" size="small" danger>
              移除
            </Button>
          </Popconfirm>
        ),
    },
  ]

  const candidates = (options ?? []).filter((option) => !admins.includes(option.id))

  // antd's Select takes every Enter to open its list, so a form holding only a select never submitted by keyboard
  // (product.md §5). With a member chosen and the list closed, Enter submits; it is caught before the Select sees
  // it. With the list open Enter still picks the member, and with nobody chosen it still opens the list.
  const submitOnEnter = (event: KeyboardEvent<HTMLDivElement>) => {
    const box = event.target as HTMLElement
    if (event.key !== 'Enter' || event.nativeEvent.isComposing || box.getAttribute('role') !== 'combobox') return
    if (box.getAttribute('aria-expanded') === 'true' || addForm.getFieldValue('userId') === undefined) return
    event.preventDefault()
    event.stopPropagation()
    addForm.submit()
  }

  return (
    <>
      <DataTable<User>
        ref={table}
        tableKey={ADMIN_USER_TABLE_KEY}
        title="管理员"
        rowKey="id"
        columns={columns}
        sortableFields={sortableFields.pageAdmin}
        request={(params, sort) => pageAdmin(params, sort)}
        toolbar={
          <Button type="primary" icon={<UserAddOutlined />} onClick={() => setAdding(true)}>
            添加管理员
          </Button>
        }
      />
      <FormModal<{ userId: number }>
        form={addForm}
        open={adding}
        title="添加管理员"
        okText="添加"
        onClose={() => setAdding(false)}
        onSubmit={async ({ userId }) => {
          const user = await addAdmin(userId, { silent: true })
          void mutatePicker((known) => known && { ...known, admins: [...known.admins, user.id] }, { revalidate: false })
          toastSuccess(`${user.username} 已成为管理员`)
          table.current?.reload()
        }}
      >
        <div onKeyDownCapture={submitOnEnter}>
          <Form.Item
            name="userId"
            label="保种员"
            rules={[{ required: true, message: '请选择保种员' }]}
            extra="管理员可以进入全部管理页面；该账号下次操作时生效"
          >
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              loading={options === null}
              placeholder="搜索用户名"
              options={candidates.map((option) => ({ label: option.username, value: option.id }))}
              notFoundContent={options === null ? '加载中…' : '没有可添加的保种员'}
            />
          </Form.Item>
        </div>
      </FormModal>
    </>
  )
}
