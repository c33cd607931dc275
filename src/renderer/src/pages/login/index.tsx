/**
 * Login: server address (saved through main, which validates it), username and password.
 * Every failure is shown inline and nothing typed is lost; success returns to where the user was.
 */
import { useEffect, useRef, useState } from 'react'
import { LockOutlined, LinkOutlined, UserOutlined } from '@ant-design/icons'
import { Alert, Button, Card, Flex, Form, Input, Typography, theme } from 'antd'
import { useLocation, useNavigate } from 'react-router-dom'
import { messages } from '@shared/messages'
import ThemeSwitch from '@renderer/components/ThemeSwitch'
import { APP_TITLE } from '@renderer/routing/documentTitle'
import { RequestError } from '@renderer/services/request'
import { login } from '@renderer/services/user'
import { useSettingsStore } from '@renderer/stores/settings'
import { useEndSession } from '@renderer/hooks/useSession'
import { redirectTarget } from '@renderer/utils/navigation'
import type { AfterLoginState } from '@renderer/routing/AccessGuard'
import type { LoginPageState } from './state'

interface LoginValues {
  serverAddress: string
  username: string
  password: string
}

export default function LoginPage() {
  const [form] = Form.useForm<LoginValues>()
  const [submitting, setSubmitting] = useState(false)
  // Enter in a field submits too; ignore it while a login is already on its way.
  const inFlight = useRef(false)
  const [loginError, setLoginError] = useState<string | null>(null)
  const serverAddress = useSettingsStore((state) => state.serverAddress)
  const saveServerAddress = useSettingsStore((state) => state.saveServerAddress)
  const navigate = useNavigate()
  const location = useLocation()
  const { token } = theme.useToken()
  const endSession = useEndSession()
  const { unreachable, ended } = (location.state as LoginPageState | null) ?? {}

  // Opening the login page ends the renderer's side of any session (after a logout, a 401, or a
  // failed first check): the user is forgotten and the next login starts with an empty cache.
  useEffect(() => {
    endSession()
  }, [endSession])

  async function submit(values: LoginValues) {
    if (inFlight.current) return
    inFlight.current = true
    setSubmitting(true)
    setLoginError(null)
    try {
      const saved = await saveServerAddress(values.serverAddress)
      if (!saved.ok) {
        form.setFields([{ name: 'serverAddress', errors: [saved.msg || messages.requestFailed] }])
        return
      }
      await login({ username: values.username, password: values.password }, { silent: true })
      navigate(redirectTarget(location.search), { replace: true, state: { afterLogin: true } satisfies AfterLoginState })
    } catch (error) {
      setLoginError(error instanceof RequestError ? error.msg : messages.requestFailed)
    } finally {
      inFlight.current = false
      setSubmitting(false)
    }
  }

  return (
    <Flex vertical align="center" justify="center" style={{ minHeight: '100vh', padding: 24, position: 'relative' }}>
      <div style={{ position: 'absolute', top: 16, right: 16 }}>
        <ThemeSwitch />
      </div>
      <Flex vertical align="center" gap={4} style={{ marginBottom: 24 }}>
        <Typography.Title level={2} style={{ margin: 0, color: token.colorPrimary }}>
          {APP_TITLE}
        </Typography.Title>
        <Typography.Text type="secondary">保种组的官种、任务与工资管理</Typography.Text>
      </Flex>
      <Card style={{ width: '100%', maxWidth: 400 }}>
        {unreachable && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            data-testid="login-unreachable"
            title={`无法确认登录状态：${unreachable}`}
            description="服务器恢复后点「重新连接」即可，不必重新登录。"
            action={
              <Button size="small" onClick={() => navigate(redirectTarget(location.search), { replace: true })}>
                重新连接
              </Button>
            }
          />
        )}
        {ended && <Alert type="warning" showIcon style={{ marginBottom: 16 }} data-testid="login-ended" title={ended} />}
        <Form<LoginValues>
          form={form}
          layout="vertical"
          size="large"
          requiredMark={false}
          initialValues={{ serverAddress }}
          onFinish={(values) => void submit(values)}
          // The last login's error is about what was sent then: gone once the user edits a field (and when a
          // login is tried again, in `submit`).
          onValuesChange={() => setLoginError(null)}
        >
          <Form.Item
            label="服务器地址"
            name="serverAddress"
            rules={[{ required: true, whitespace: true }]}
            extra="例如 http://127.0.0.1:8080/api/v1"
          >
            <Input prefix={<LinkOutlined />} placeholder="http://host:8080/api/v1" autoComplete="url" />
          </Form.Item>
          <Form.Item label="用户名" name="username" rules={[{ required: true, whitespace: true }]}>
            <Input prefix={<UserOutlined />} autoComplete="username" autoFocus />
          </Form.Item>
          <Form.Item label="密码" name="password" rules={[{ required: true }]}>
            <Input.Password prefix={<LockOutlined />} autoComplete="current-password" />
          </Form.Item>
          {loginError && (
            <Form.Item>
              <Alert type="error" showIcon title={loginError} data-testid="login-error" />
            </Form.Item>
          )}
          <Form.Item style={{ marginBottom: 0 }}>
            <Button type="primary" htmlType="submit" block loading={submitting}>
              登录
            </Button>
          </Form.Item>
        </Form>
      </Card>
    </Flex>
  )
}
