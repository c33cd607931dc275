/**
 * Root layout of the logged-in app (`/`): fetches the current user first; no user → login page
 * (remembering where the user was). Then side menu, header (theme switch, user menu) and page.
 */
import { useEffect, useMemo, useState } from 'react'
import { Layout, Menu, Spin, theme, Typography, type MenuProps } from 'antd'
import { Navigate, Outlet, useLocation, useNavigate, useNavigation } from 'react-router-dom'
import type { LoginInfo } from '@shared/entities'
import ThemeSwitch from '@renderer/components/ThemeSwitch'
import UserMenu from '@renderer/components/UserMenu'
import PageLoading from '@renderer/components/PageLoading'
import { useLoginInfo } from '@renderer/hooks/useLoginInfo'
import { isSeeder, menuEntries, selectedMenuPath } from '@renderer/routing/menu'
import { useAppRoutes } from '@renderer/routing/RoutesContext'
import { useCurrentUser, useUserStore } from '@renderer/stores/user'
import { loginPathFor } from '@renderer/utils/navigation'
import { UNAUTHORIZED_CODE, type RequestError } from '@renderer/services/request'
import { messages } from '@shared/messages'
import type { LoginPageState } from '@renderer/pages/login/state'
import { APP_TITLE } from '@renderer/routing/documentTitle'

const { Header, Sider, Content } = Layout

function Logo({ collapsed }: { collapsed: boolean }) {
  const { token } = theme.useToken()
  return (
    <div
      style={{
        height: 64,
        display: 'flex',
        alignItems: 'center',
        justifyContent: collapsed ? 'center' : 'flex-start',
        gap: 10,
        padding: collapsed ? 0 : '0 20px',
        overflow: 'hidden',
        whiteSpace: 'nowrap',
      }}
    >
      <span
        aria-hidden
        style={{
          width: 28,
          height: 28,
          flex: 'none',
          borderRadius: 6,
          background: token.colorPrimary,
          color: '#fff',
          display: 'inline-flex',
          alignItems: 'center',
          justifyContent: 'center',
          fontWeight: 600,
        }}
      >
        保
      </span>
      {!collapsed && (
        <Typography.Text strong style={{ fontSize: 16 }} data-testid="app-logo">
          {APP_TITLE}
        </Typography.Text>
      )}
    </div>
  )
}

function LayoutFrame({ user }: { user: LoginInfo }) {
  const [collapsed, setCollapsed] = useState(false)
  const routes = useAppRoutes()
  const location = useLocation()
  const navigate = useNavigate()
  const navigation = useNavigation()
  const { token } = theme.useToken()

  const seeder = isSeeder(user)
  const entries = useMemo(() => menuEntries(routes, user.role, { seeder }), [routes, user.role, seeder])
  const items: MenuProps['items'] = useMemo(
    () => entries.map((entry) => ({ key: entry.path, icon: entry.icon, label: entry.title })),
    [entries],
  )
  const selected = selectedMenuPath(entries, location.pathname)
  // antd's "light" sider takes its colours from the algorithm: near-black under realDark, white
  // under light (the "dark" sider would be navy on a black page).
  const siderTheme = 'light'

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Sider collapsible collapsed={collapsed} onCollapse={setCollapsed} theme={siderTheme} width={208}>
        <Logo collapsed={collapsed} />
        <Menu
          theme={siderTheme}
          mode="inline"
          items={items}
          selectedKeys={selected ? [selected] : []}
          onClick={({ key }) => navigate(key)}
          style={{ borderInlineEnd: 'none' }}
        />
      </Sider>
      <Layout>
        <Header
          style={{
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'flex-end',
            gap: 8,
            padding: '0 16px',
            background: token.colorBgContainer,
            borderBottom: `1px solid ${token.colorBorderSecondary}`,
          }}
        >
          <ThemeSwitch />
          <UserMenu user={user} />
        </Header>
        <Content style={{ padding: 24 }}>
          {/* Between pages the old page stays until the next one's code has loaded. */}
          <Spin spinning={navigation.state === 'loading'} delay={200}>
            <Outlet />
          </Spin>
        </Content>
      </Layout>
    </Layout>
  )
}

function loginPageState(error: RequestError): LoginPageState | undefined {
  if (error.code !== UNAUTHORIZED_CODE) return { unreachable: error.msg }
  return error.msg && error.msg !== messages.notLoggedIn ? { ended: error.msg } : undefined
}

export default function BasicLayout() {
  const location = useLocation()
  const { data, error } = useLoginInfo()
  const currentUser = useCurrentUser()

  // The fetcher fills the store; this covers an answer served from the cache without a fetch.
  useEffect(() => {
    if (data && useUserStore.getState().currentUser !== data) useUserStore.getState().setCurrentUser(data)
  }, [data])

  // A failed re-check with a user already shown keeps the layout; a 401 redirects in request(). Without an answer
  // (the server down, unreachable) the login page says why — the saved login is kept, for when it is back. A login
  // the server ended (a ban, 7 idle days) is said too; the plain 请先登录 (no saved login) needs no word.
  if (error && !data) return <Navigate to={loginPathFor(location)} replace state={loginPageState(error)} />
  if (!data || !currentUser || currentUser.id !== data.id) return <PageLoading />
  return <LayoutFrame user={data} />
}
