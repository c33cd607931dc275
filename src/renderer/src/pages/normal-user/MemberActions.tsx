/**
 * A member row's actions: 编辑, the status change its state allows (封禁 / 解封 / 恢复), 重置密码 and
 * 删除, each status change confirmed first.
 */
import { Button, Popconfirm, Space } from 'antd'
import type { User } from '@shared/entities'
import { AccountStatus } from '@shared/enums'

export interface MemberActionHandlers {
  edit(user: User): void
  resetPassword(user: User): void
  /** `done`: the toast once the server accepted the change. The confirmation stays busy until it settles. */
  changeStatus(user: User, status: AccountStatus, done: string): Promise<void>
}

/** One confirmed status change, as a link button. */
function StatusChange(props: {
  onConfirm(): Promise<void>
  label: string
  title: string
  description: string
  danger?: boolean
  dangerLink?: boolean
}) {
  return (
    <Popconfirm
      title={props.title}
      description={props.description}
      okText={props.label}
      cancelText="取消"
      okButtonProps={props.danger ? { danger: true } : undefined}
      onConfirm={props.onConfirm}
    >
      <Button type="link" size="small" danger={props.dangerLink}>
        {props.label}
      </Button>
    </Popconfirm>
  )
}

export default function MemberActions({ user, handlers }: { user: User; handlers: MemberActionHandlers }) {
  const change = (status: AccountStatus, done: string) => () => handlers.changeStatus(user, status, done)
  return (
    <Space size={0} wrap={false}>
      <Button type="link" size="small" onClick={() => handlers.edit(user)}>
        编辑
      </Button>
      {user.status === AccountStatus.Banned ? (
        <StatusChange
          label="解封"
          title={`解封 ${user.username}？`}
          description="解封后该账号可以重新登录。"
          onConfirm={change(AccountStatus.Normal, '已解封')}
        />
      ) : user.status === AccountStatus.Normal ? (
        <StatusChange
          label="封禁"
          title={`封禁 ${user.username}？`}
          description="封禁后该账号立即退出登录，且不能再登录。"
          danger
          onConfirm={change(AccountStatus.Banned, '已封禁')}
        />
      ) : (
        <StatusChange
          label="恢复"
          title={`恢复 ${user.username}？`}
          description="恢复后该账号状态为正常，可以用原密码登录。"
          onConfirm={change(AccountStatus.Normal, '已恢复')}
        />
      )}
      {/* A deleted account cannot log in: a new password for it would be of no use until it is restored. */}
      {user.status !== AccountStatus.Deleted && (
        <Button type="link" size="small" onClick={() => handlers.resetPassword(user)}>
          重置密码
        </Button>
      )}
      {user.status !== AccountStatus.Deleted && (
        <StatusChange
          label="删除"
          title={`删除 ${user.username}？`}
          description="账号将标记为已删除并立即退出登录。"
          danger
          dangerLink
          onConfirm={change(AccountStatus.Deleted, '已删除')}
        />
      )}
    </Space>
  )
}
