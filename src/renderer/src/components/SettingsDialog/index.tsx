/**
 * 设置: the server address, the theme and the update address, from the header's user menu (the
 * login page has the first two too). Main validates and normalises the address; a refusal is shown on the field and nothing
 * typed is lost. A new address ends the session (main forgets the token for another server), so
 * after saving one the user goes to the login page with a notice.
 */
import { useEffect, useState } from 'react'
import { LinkOutlined } from '@ant-design/icons'
import { Alert, Form, Input, Modal, Radio } from 'antd'
import type { NavTheme } from '@shared/enums'
import { messages } from '@shared/messages'
import { useFirstFieldFocus } from '@renderer/components/FormModal'
import { useSettingsStore } from '@renderer/stores/settings'
import { toastInfo, toastSuccess } from '@renderer/utils/feedback'

export interface SettingsValues {
  serverAddress: string
  navTheme: NavTheme
  updateUrl: string
}

export interface SettingsDialogProps {
  open: boolean
  onClose(): void
  /** Called after a new server address was saved (the session is over). */
  onServerChanged(): void
}

export default function SettingsDialog({ open, onClose, onServerChanged }: SettingsDialogProps) {
  const [form] = Form.useForm<SettingsValues>()
  const [saving, setSaving] = useState(false)
  const body = useFirstFieldFocus(open)
  const serverAddress = useSettingsStore((state) => state.serverAddress)
  const navTheme = useSettingsStore((state) => state.navTheme)
  const updateUrl = useSettingsStore((state) => state.updateUrl)

  // Each opening starts from what is saved, without the errors of an earlier opening's refused save.
  useEffect(() => {
    if (!open) return
    form.resetFields()
    form.setFieldsValue({ serverAddress, navTheme, updateUrl })
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only on opening: a save in progress must not overwrite what the user typed
  }, [open])

  async function save(values: SettingsValues) {
    if (saving) return
    setSaving(true)
    try {
      const store = useSettingsStore.getState()
      // The update address first: it never ends the session, and a refusal keeps the dialog as typed.
      const feed = (values.updateUrl ?? '').trim()
      const feedChanged = feed !== store.updateUrl
      if (feedChanged) {
        const saved = await store.saveUpdateUrl(feed)
        if (!saved.ok) {
          form.setFields([{ name: 'updateUrl', value: values.updateUrl, errors: [saved.msg || messages.requestFailed] }])
          return
        }
      }
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
        toastInfo('服务器地址已更改，请重新登录')
        onServerChanged()
      } else if (result || feedChanged) {
        // Only the spelling of the address differed (same server, same session), or the update address changed.
        toastSuccess('设置已保存')
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
      <div ref={body}>
        <Form<SettingsValues>
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={(values) => void save(values)}
          // A refusal shown under the update address is about what was there: the field has no rules that would
          // validate it again on change, so typing kept the old message (found by an outside tester).
          onValuesChange={(changed: Partial<SettingsValues>) => {
            if ('updateUrl' in changed) form.setFields([{ name: 'updateUrl', errors: [] }])
          }}
          initialValues={{ serverAddress, navTheme, updateUrl }}
        >
          <Form.Item
            label="服务器地址"
            name="serverAddress"
            rules={[{ required: true, whitespace: true }]}
            extra="例如 http://127.0.0.1:8080/api/v1"
          >
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
          <Form.Item label="更新服务器地址" name="updateUrl" extra="发布新版本安装包的 https 地址（由管理员提供）；留空则不检查更新">
            <Input
              prefix={<LinkOutlined />}
              placeholder="https://example.org/seeding-console/"
              autoComplete="url"
              onPressEnter={() => form.submit()}
            />
          </Form.Item>
          <Alert type="info" showIcon title="更改服务器地址后需要重新登录。" />
        </Form>
      </div>
    </Modal>
  )
}
