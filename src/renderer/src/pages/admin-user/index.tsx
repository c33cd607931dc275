/**
 * 管理员: the admins (page-admin). `添加管理员` picks a member whose account is 正常 (page-normal with
 * the status filter, searched by name on the server; the server refuses a banned or deleted one) and makes
 * them an admin; `移除` (confirmed) takes the role away. The server refuses the last admin and
 * yourself (409) and its message is shown; your own row's 移除 is disabled up front.
 */
import { useEffect, useRef, useState } from 'react'
import { UserAddOutlined } from '@ant-design/icons'
import { Button, Form, Popconfirm, Select, Tooltip } from 'antd'
import { AccountStatus } from '@shared/enums'
import type { User } from '@shared/entities'
import { sortableFields } from '@shared/endpoints'
import DataTable, { type DataTableActions, type DataTableColumn } from '@renderer/components/DataTable'
import { dateTimeColumn } from '@renderer/components/dateTimeColumn'
import FormModal from '@renderer/components/FormModal'
import { submitOnEnter } from '@renderer/utils/submitOnEnter'
import { READ_ONCE, useLoad, useOpening } from '@renderer/hooks/useApi'
import { addAdmin, delAdmin, pageAdmin, pageNormal } from '@renderer/services/users'
import { useCurrentUser } from '@renderer/stores/user'
import { toastSuccess } from '@renderer/utils/feedback'

export const ADMIN_USER_TABLE_KEY = 'adminUser.list'
/** Members the picker lists at once; more are found by typing (the server searches by name). */
export const PICKER_SIZE = 50
export const PICKER_SEARCH_DEBOUNCE_MS = 300
const USERNAME_MAX = 64

export default function AdminUserPage() {
  const me = useCurrentUser()
  const table = useRef<DataTableActions>(null)
  const [adding, setAdding] = useState(false)
  const [addForm] = Form.useForm<{ userId: number }>()
  // Only members whose account is 正常 can become admins (the server refuses the others): the picker asks for
  // exactly those, anew on each opening, and by the typed name 300 ms after the last keystroke.
  const opening = useOpening(adding)
  const [search, setSearch] = useState('')
  const [asked, setAsked] = useState('')
  const typed = search.trim().slice(0, USERNAME_MAX)
  useEffect(() => {
    const timer = setTimeout(() => setAsked(typed), typed ? PICKER_SEARCH_DEBOUNCE_MS : 0)
    return () => clearTimeout(timer)
  }, [typed])
  const {
    data: picker,
    isLoading,
    mutate: mutatePicker,
  } = useLoad(
    'adminUser.picker',
    opening === null ? null : { opening, username: asked },
    ({ username }) => pageNormal({ current: 1, pageSize: PICKER_SIZE, status: AccountStatus.Normal, username }, { username: 'ascend' }),
    // While a new search is read, the previous answer stays listed.
    { ...READ_ONCE, keepPreviousData: true },
  )
  const options = picker?.success ? picker.data : picker ? [] : null
  // Until the typed name's answer is in, the list shown is an older one.
  const searching = typed !== asked || isLoading
  const more = picker && picker.total > picker.data.length ? picker.total : 0

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
      {/* No draft (utils/formDraft) through a login that ended, unlike 新建保种员: it holds one pick from the list and
          nothing typed, and by the next login the member picked may no longer be one who can become an admin. */}
      <FormModal<{ userId: number }>
        form={addForm}
        open={adding}
        title="添加管理员"
        okText="添加"
        onClose={() => {
          setAdding(false)
          setSearch('')
        }}
        onSubmit={async ({ userId }) => {
          const user = await addAdmin(userId, { silent: true })
          // Now an admin: no longer a member to pick.
          void mutatePicker((known) => known && { ...known, data: known.data.filter((member) => member.id !== user.id) }, {
            revalidate: false,
          })
          toastSuccess(`${user.username} 已成为管理员`)
          table.current?.reload()
        }}
      >
        <div onKeyDownCapture={submitOnEnter(addForm, 'userId')}>
          <Form.Item
            name="userId"
            label="保种员"
            rules={[{ required: true, message: '请选择保种员' }]}
            extra={`只列出账号状态正常的保种员${more ? `（共 ${more} 人，输入用户名查找）` : ''}；管理员可以进入全部管理页面，该账号下次操作时生效`}
          >
            <Select
              // The list already holds the server's matches; filtering them here too keeps it right while the next search is read.
              showSearch={{ optionFilterProp: 'label', onSearch: setSearch }}
              loading={options === null || searching}
              placeholder="搜索用户名"
              options={(options ?? []).map((option) => ({ label: option.username, value: option.id }))}
              notFoundContent={
                options === null || searching
                  ? '加载中…'
                  : // A list that could not be read says so: not that no member may be added.
                    picker && !picker.success
                    ? '保种员列表加载失败，请关闭后重新打开再试'
                    : '没有可添加的保种员（只能添加账号状态正常的保种员）'
              }
            />
          </Form.Item>
        </div>
      </FormModal>
    </>
  )
}
