/**
 * 修改密码: the logged-in user changes their own password (old one, new one twice). The server
 * keeps this session and ends the user's other sessions; a wrong old password is refused on the
 * form with everything typed kept, and guessing it is limited like logging in.
 *
 * Unlike 新建 / 编辑保种员 it keeps no draft (utils/formDraft) through a login that ended: it holds nothing but
 * passwords, and a password must not be written to sessionStorage — plain text any script of the page can read,
 * kept after the dialog is gone.
 */
import { Form, Input } from 'antd'
import FormModal from '@renderer/components/FormModal'
import { changePassword } from '@renderer/services/user'
import { toastSuccess } from '@renderer/utils/feedback'
import { passwordLength, passwordNotBlank } from '@renderer/utils/formLimits'

interface ChangePasswordValues {
  oldPassword: string
  newPassword: string
  confirmPassword: string
}

export default function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  return (
    <FormModal<ChangePasswordValues>
      open={open}
      title="修改密码"
      okText="修改"
      name="changePassword"
      onClose={onClose}
      onSubmit={async (values) => {
        await changePassword({ oldPassword: values.oldPassword, newPassword: values.newPassword }, { silent: true })
        toastSuccess('密码已修改，其他设备上的登录已退出')
      }}
    >
      <Form.Item name="oldPassword" label="原密码" rules={[{ required: true }]}>
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item
        name="newPassword"
        label="新密码"
        rules={[{ required: true }, passwordLength, passwordNotBlank]}
        extra={`至少 ${passwordLength.min} 个字符`}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirmPassword"
        label="确认新密码"
        dependencies={['newPassword']}
        rules={[
          { required: true },
          ({ getFieldValue }) => ({
            validator: (_, value: string | undefined) =>
              !value || value === getFieldValue('newPassword') ? Promise.resolve() : Promise.reject(new Error('两次输入的新密码不一致')),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
    </FormModal>
  )
}
