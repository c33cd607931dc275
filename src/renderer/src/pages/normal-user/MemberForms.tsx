/**
 * The member dialogs of 保种员: 新建保种员, 编辑保种员 (site uid, remark) and 重置密码.
 *
 * 新建 and 编辑 keep what was typed as a draft (utils/formDraft, as 官种规则 does): a save refused because the login
 * ended sends the admin to the login page, and after logging in again the page opens the dialog once more with the
 * draft. 取消 or a successful save drops it.
 */
import { useMemo } from 'react'
import { Alert, Form, Input } from 'antd'
import type { User } from '@shared/entities'
import FormModal from '@renderer/components/FormModal'
import { submitOnEnter } from '@renderer/utils/submitOnEnter'
import { createUser, resetPassword, updateUser } from '@renderer/services/users'
import { useCurrentUser } from '@renderer/stores/user'
import { toastSuccess } from '@renderer/utils/feedback'
import { clearDraft, readDraft, sameValues, writeDraft } from '@renderer/utils/formDraft'
import { passwordLength, passwordNotBlank, remarkMaxLength, usernameLength } from '@renderer/utils/formLimits'
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

/** The member an edit dialog is for: what it shows of them (a draft keeps it, to open the dialog again). */
export type EditedMember = Pick<User, 'id' | 'username' | 'siteUid' | 'remark'>

/**
 * The drafts. The password is never part of one: sessionStorage is plain text that any script of the page can read
 * and that outlives the dialog, and a password (a member's initial one, here) must not be kept anywhere once the
 * dialog is gone — the restored dialog asks for it again. For the same reason 重置密码 and 修改密码 keep no draft at
 * all (a password is all they hold), and 添加管理员 none either: it holds one pick from a list, nothing typed.
 */
type CreateDraft = Omit<CreateValues, 'password'>
interface EditDraft extends EditValues {
  member: EditedMember
}
const CREATE_DRAFT = 'normalUser.create'
const EDIT_DRAFT = 'normalUser.edit'
/** These forms have no saved version to compare a draft with (the rules have): every draft is on version 0. */
const NO_VERSION = 0

/** The drafts the admin left (a save refused because the login ended): the page opens that dialog again. */
export function readMemberDrafts(userId: number): { create: boolean; edit: EditedMember | null } {
  return {
    create: readDraft<CreateDraft>(CREATE_DRAFT, userId) !== null,
    edit: readDraft<EditDraft>(EDIT_DRAFT, userId)?.values.member ?? null,
  }
}

/** The draft of a dialog, read once per opening (a later keystroke writes it, but the form already holds that). */
function useOpeningDraft<T>(page: string, open: boolean): { userId: number; draft: T | null } {
  const userId = useCurrentUser()?.id ?? 0
  const draft = useMemo(() => (open ? (readDraft<T>(page, userId)?.values ?? null) : null), [open, page, userId])
  return { userId, draft }
}

const restoredNotice = (text: string) => (
  <Alert type="warning" showIcon title={text} data-testid="member-draft" style={{ marginBottom: 16 }} />
)

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
// The count shows how much of the limit is used, so a pasted text cut at the limit is not cut silently.
const remarkField = (
  <Form.Item name="remark" label="备注" rules={[{ max: remarkMaxLength }]}>
    <Input.TextArea rows={2} maxLength={remarkMaxLength} showCount placeholder="可选" />
  </Form.Item>
)

export function CreateMemberModal({ open, onClose, onCreated }: { open: boolean; onClose(): void; onCreated(): void }) {
  const [form] = Form.useForm<CreateValues>()
  const { userId, draft } = useOpeningDraft<CreateDraft>(CREATE_DRAFT, open)
  const close = () => {
    clearDraft(CREATE_DRAFT, userId)
    onClose()
  }
  return (
    <FormModal<CreateValues>
      form={form}
      open={open}
      title="新建保种员"
      okText="创建"
      initialValues={draft ?? undefined}
      notice={draft && restoredNotice('已恢复上次未保存的内容（初始密码不会保留，请重新输入）；点「创建」才会生效。')}
      onValuesChange={(_, values) => {
        const { username, siteUid, remark } = values
        const kept: CreateDraft = { username, siteUid, remark }
        if (!username?.trim() && (siteUid ?? null) === null && !remark?.trim()) clearDraft(CREATE_DRAFT, userId)
        else writeDraft(CREATE_DRAFT, userId, { version: NO_VERSION, values: kept })
      }}
      onClose={close}
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
        rules={[{ required: true }, passwordLength, passwordNotBlank]}
        extra={`至少 ${passwordLength.min} 个字符，请告知保种员登录后自行修改`}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      {/* As in 编辑保种员: Enter there creates once a uid is picked. */}
      <div onKeyDownCapture={submitOnEnter(form, 'siteUid')}>{siteUidField()}</div>
      {remarkField}
    </FormModal>
  )
}

/** `member` null: closed. */
export function EditMemberModal({ member, onClose, onSaved }: { member: EditedMember | null; onClose(): void; onSaved(): void }) {
  const [form] = Form.useForm<EditValues>()
  const { userId, draft: stored } = useOpeningDraft<EditDraft>(EDIT_DRAFT, member !== null)
  // A draft of another member's edit is not this dialog's.
  const draft = stored && member && stored.member.id === member.id ? stored : null
  const saved: EditValues = { siteUid: member?.siteUid ?? null, remark: member?.remark ?? '' }
  const close = () => {
    clearDraft(EDIT_DRAFT, userId)
    onClose()
  }
  return (
    <FormModal<EditValues>
      form={form}
      open={member !== null}
      title={`编辑保种员 · ${member?.username ?? ''}`}
      okText="保存"
      initialValues={draft ? { siteUid: draft.siteUid ?? null, remark: draft.remark ?? '' } : saved}
      notice={draft && restoredNotice('已恢复上次未保存的修改；点「保存」才会生效，不需要时点「取消」。')}
      onValuesChange={(_, values) => {
        if (!member) return
        const edits: EditValues = { siteUid: values.siteUid ?? null, remark: values.remark ?? '' }
        if (sameValues(edits, saved)) clearDraft(EDIT_DRAFT, userId)
        else writeDraft<EditDraft>(EDIT_DRAFT, userId, { version: NO_VERSION, values: { ...edits, member } })
      }}
      onClose={close}
      onSubmit={async (values) => {
        await updateUser({ id: member!.id, siteUid: values.siteUid ?? null, remark: values.remark?.trim() ?? '' }, { silent: true })
        toastSuccess('已保存')
        onSaved()
      }}
    >
      {/* 站点 UID is a select: Enter there saves once a uid is picked (备注 is a text area, where Enter is a new line). */}
      <div onKeyDownCapture={submitOnEnter(form, 'siteUid')}>{siteUidField(member?.id)}</div>
      {remarkField}
    </FormModal>
  )
}

/** `member` null: closed. No draft: it holds only a password (see the drafts above). */
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
      <Form.Item
        name="password"
        label="新密码"
        rules={[{ required: true }, passwordLength, passwordNotBlank]}
        extra="重置后该账号的登录会话全部失效"
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
    </FormModal>
  )
}
