import { useState } from 'react'
import { KeyOutlined, LogoutOutlined, SettingOutlined, UserOutlined } from '@ant-design/icons'
import { Avatar, Button, Dropdown, type MenuProps } from 'antd'
import { useNavigate } from 'react-router-dom'
import type { LoginInfo } from '@shared/entities'
import ChangePasswordDialog from '@renderer/components/ChangePasswordDialog'
import SettingsDialog from '@renderer/components/SettingsDialog'
import { logout } from '@renderer/services/user'
import { LOGIN_PATH } from '@renderer/utils/navigation'

/** The header's user entry: the username with a dropdown holding `设置`, `修改密码` and `退出登录`. */
export default function UserMenu({ user }: { user: LoginInfo }) {
  const navigate = useNavigate()
  const [settingsOpen, setSettingsOpen] = useState(false)
  const [passwordOpen, setPasswordOpen] = useState(false)

  async function signOut() {
    // Main clears the token even when the server call fails, so a failure is not worth a toast.
    try {
      await logout({ silent: true })
    } catch {
      // nothing to show
    }
    // The login page ends the renderer's side of the session (user, cached data) as it opens.
    void navigate(LOGIN_PATH, { replace: true })
  }

  const items: MenuProps['items'] = [
    { key: 'settings', icon: <SettingOutlined />, label: '设置' },
    { key: 'password', icon: <KeyOutlined />, label: '修改密码' },
    { key: 'logout', icon: <LogoutOutlined />, label: '退出登录' },
  ]
  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'settings') setSettingsOpen(true)
    if (key === 'password') setPasswordOpen(true)
    if (key === 'logout') void signOut()
  }

  return (
    <>
      <Dropdown menu={{ items, onClick }} placement="bottomRight" trigger={['click']}>
        <Button type="text" data-testid="user-menu" icon={<Avatar size="small" icon={<UserOutlined />} />}>
          {user.username}
        </Button>
      </Dropdown>
      {/* A new server address ends the session: main dropped the token; the login page ends the rest. */}
      <ChangePasswordDialog open={passwordOpen} onClose={() => setPasswordOpen(false)} />
      <SettingsDialog
        open={settingsOpen}
        onClose={() => setSettingsOpen(false)}
        onServerChanged={() => void navigate(LOGIN_PATH, { replace: true })}
      />
    </>
  )
}
