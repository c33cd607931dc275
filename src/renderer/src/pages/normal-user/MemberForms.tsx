/** The member dialogs of 保种员: 新建保种员, 编辑保种员 (site uid, remark) and 重置密码. */
import { Form, Input } from 'antd'
import type { User } from '@shared/entities'
import FormModal from '@renderer/components/FormModal'
import { createUser, resetPassword, updateUser } from '@renderer/services/users'
import { toastSuccess } from '@renderer/utils/feedback'
import { passwordLength, remarkMaxLength, usernameLength } from '@renderer/utils/formLimits'
import SiteUserSelect from './SiteUserSelect'

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

/** `memberId`: the member being edited (their own site user is not shown as taken). */
const siteUidField = (memberId?: number) => (
  <Form.Item
    name="siteUid"
    label="站点 UID"
    extra="保种员在站点上的用户 ID，用于匹配做种数据：按站点用户名或 UID 搜索已同步的站点用户，也可直接输入 UID"
  >
    <SiteUserSelect memberId={memberId} />
  </Form.Item>
)
const remarkField = (
  <Form.Item name="remark" label="备注" rules={[{ max: remarkMaxLength }]}>
    <Input.TextArea rows={2} maxLength={remarkMaxLength} placeholder="可选" />
  </Form.Item>
)

export function CreateMemberModal({ open, onClose, onCreated }: { open: boolean; onClose(): void; onCreated(): void }) {
  return (
    <FormModal<CreateValues>
      open={open}
      title="新建保种员"
      okText="创建"
      onClose={onClose}
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
        onCreated()
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
  )
}

/** `member` null: closed. */
export function EditMemberModal({ member, onClose, onSaved }: { member: User | null; onClose(): void; onSaved(): void }) {
  return (
    <FormModal<EditValues>
      open={member !== null}
      title={`编辑保种员 · ${member?.username ?? ''}`}
      okText="保存"
      initialValues={{ siteUid: member?.siteUid ?? null, remark: member?.remark ?? '' }}
      onClose={onClose}
      onSubmit={async (values) => {
        await updateUser({ id: member!.id, siteUid: values.siteUid ?? null, remark: values.remark?.trim() ?? '' }, { silent: true })
        toastSuccess('已保存')
        onSaved()
      }}
    >
      {siteUidField(member?.id)}
      {remarkField}
    </FormModal>
  )
}

/** `member` null: closed. */
export function ResetPasswordModal({ member, onClose }: { member: User | null; onClose(): void }) {
  return (
    <FormModal<{ password: string }>
      open={member !== null}
      title={`重置密码 · ${member?.username ?? ''}`}
      okText="重置"
      danger
      onClose={onClose}
      onSubmit={async (values) => {
        await resetPassword(member!.id, values.password, { silent: true })
        toastSuccess('密码已重置，该账号需要用新密码重新登录')
      }}
    >
      <Form.Item name="password" label="新密码" rules={[{ required: true }, passwordLength]} extra="重置后该账号的登录会话全部失效">
        <Input.Password autoComplete="new-password" />
      </Form.Item>
    </FormModal>
  )
}
