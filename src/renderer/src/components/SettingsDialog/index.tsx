/**
 * 设置: the server address and the theme, from the header's user menu (the login page has both
 * too). Main validates and normalises the address; a refusal is shown on the field and nothing
 * typed is lost. A new address ends the session (main forgets the token for another server), so
 * after saving one the user goes to the login page with a notice.
 */
import { useEffect, useState } from 'react'
import { LinkOutlined } from '@ant-design/icons'
import { Alert, App, Form, Input, Modal, Radio } from 'antd'
import type { NavTheme } from '@shared/enums'
import { messages } from '@shared/messages'
import { useSettingsStore } from '@renderer/stores/settings'

export interface SettingsValues {
  serverAddress: string
  navTheme: NavTheme
}

export interface SettingsDialogProps {
  open: boolean
  onClose(): void
  /** Called after a new server address was saved (the session is over). */
  onServerChanged(): void
}

export default function SettingsDialog({ open, onClose, onServerChanged }: SettingsDialogProps) {
  const [form] = Form.useForm<SettingsValues>()
  const { message } = App.useApp()
  const [saving, setSaving] = useState(false)
  const serverAddress = useSettingsStore((state) => state.serverAddress)
  const navTheme = useSettingsStore((state) => state.navTheme)

  // Each opening starts from what is saved.
  useEffect(() => {
    if (open) form.setFieldsValue({ serverAddress, navTheme })
    // Only on opening: a save in progress must not overwrite what the user typed.
  }, [open])

  async function save(values: SettingsValues) {
    if (saving) return
    setSaving(true)
    try {
      const store = useSettingsStore.getState()
      const before = store.serverAddress
      const trimmed = values.serverAddress.trim()
      // The address first: when main refuses it, nothing is saved and the dialog keeps every value.
      const result = trimmed === before ? null : await store.saveServerAddress(trimmed)
      if (result && !result.ok) {
        form.setFields([{ name: 'serverAddress', value: values.serverAddress, errors: [result.msg || messages.requestFailed] }])
        return
      }
      if (values.navTheme !== useSettingsStore.getState().navTheme) await useSettingsStore.getState().setNavTheme(values.navTheme)
      onClose()
      if (result && result.data.serverAddress !== before) {
        void message.info('服务器地址已更改，请重新登录')
        onServerChanged()
      } else if (result) {
        // Only the spelling differed (e.g. a trailing slash): same server, same session.
        void message.success('设置已保存')
      }
    } finally {
      setSaving(false)
    }
  }

  return (
    <Modal
      open={open}
      title="设置"
      okText="保存"
      cancelText="取消"
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      forceRender
      data-testid="settings-dialog"
    >
      <Form<SettingsValues> form={form} layout="vertical" requiredMark={false} onFinish={(values) => void save(values)} initialValues={{ serverAddress, navTheme }}>
        <Form.Item label="服务器地址" name="serverAddress" rules={[{ required: true, whitespace: true }]} extra="例如 http://127.0.0.1:8080/api/v1">
          <Input prefix={<LinkOutlined />} placeholder="http://host:8080/api/v1" autoComplete="url" onPressEnter={() => form.submit()} />
        </Form.Item>
        <Form.Item label="主题" name="navTheme">
          <Radio.Group
            optionType="button"
            buttonStyle="solid"
            options={[
              { label: '暗色', value: 'realDark' },
              { label: '亮色', value: 'light' },
            ]}
          />
        </Form.Item>
        <Alert type="info" showIcon title="更改服务器地址后需要重新登录。" />
      </Form>
    </Modal>
  )
}
