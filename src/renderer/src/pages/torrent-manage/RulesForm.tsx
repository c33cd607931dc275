/**
 * 官种规则: every rule field with its Chinese label and help text. Saving creates a new rule
 * version (the server re-labels torrents and records); a refused save shows the server's message
 * and keeps what was typed.
 */
import { useEffect, useState } from 'react'
import { Alert, Button, Card, Col, Flex, Form, Input, InputNumber, Result, Row, Select, Skeleton, Tag, Typography } from 'antd'
import type { RuleBody, Rules, SiteOptions } from '@shared/entities'
import { errorMessage } from '@renderer/components/FormModal'
import { getRules, saveRules } from '@renderer/services/config'
import { emptySiteOptions, siteOptions } from '@renderer/services/site'
import { toastSuccess } from '@renderer/utils/feedback'
import { ruleGroups, ruleLabel, type RuleFieldSpec } from './ruleFields'

const withoutVersion = ({ version: _version, ...body }: Rules): RuleBody => body

/** Tags typed into the factors box arrive as text; numbers stay numbers, the rest is left for the validator. */
export const toFactors = (values: readonly (string | number)[] | undefined): (string | number)[] =>
  (values ?? []).map((value) => (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value))

/** The synced site names a tags field offers (teams for 官方制作组, tags for 官方标签). */
function siteNamesFor(field: RuleFieldSpec, names: SiteOptions): string[] {
  if (field.name === 'officialTeams') return names.teams
  if (field.name === 'officialTags') return names.tags
  return []
}

function control(field: RuleFieldSpec, names: SiteOptions) {
  switch (field.kind) {
    case 'tags': {
      const offered = siteNamesFor(field, names)
      // Without synced names (demo, nothing synced yet) there is no list to open: typing only.
      if (!offered.length) return <Select mode="tags" tokenSeparators={[',', '，']} open={false} suffixIcon={null} placeholder="输入后按回车添加" style={{ width: '100%' }} />
      return (
        <Select
          mode="tags"
          tokenSeparators={[',', '，']}
          options={offered.map((name) => ({ value: name, label: name }))}
          placeholder="从站点已同步的名称中选择，或输入后按回车添加"
          style={{ width: '100%' }}
        />
      )
    }
    case 'factors':
      return <Select mode="tags" tokenSeparators={[',', '，', ' ']} open={false} suffixIcon={null} placeholder="例如 1, 0.8, 0.6, 0.3" style={{ width: '100%' }} />
    case 'text':
      return <Input />
    default:
      return <InputNumber min={field.min} max={field.max} precision={field.kind === 'integer' ? 0 : undefined} suffix={field.unit} style={{ width: '100%' }} />
  }
}

function rulesFor(field: RuleFieldSpec) {
  const label = ruleLabel(field.name)
  if (field.kind === 'factors') {
    return [
      {
        validator: async (_: unknown, value: unknown[] | undefined) => {
          if (!value || value.length === 0) throw new Error(`请输入${label}`)
          if (value.some((item) => typeof item !== 'number' || item < 0 || item > 100)) throw new Error(`${label}只能是 0–100 之间的数字`)
        },
      },
    ]
  }
  if (field.kind === 'tags') return []
  return [{ required: true }]
}

export interface RulesFormProps {
  /** After a save (the torrent list shows the new labels). */
  onSaved?(rules: Rules): void
}

export default function RulesForm({ onSaved }: RulesFormProps) {
  const [form] = Form.useForm<RuleBody>()
  const [rules, setRules] = useState<Rules | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [saveError, setSaveError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const [reloads, setReloads] = useState(0)
  const [names, setNames] = useState<SiteOptions>(emptySiteOptions)

  // The site's team and tag names, offered by the two official-torrent lists (free typing stays).
  useEffect(() => {
    let current = true
    void siteOptions().then((loaded) => current && setNames(loaded))
    return () => {
      current = false
    }
  }, [])

  useEffect(() => {
    let current = true
    setLoadError(null)
    getRules({ silent: true })
      .then((loaded) => current && setRules(loaded))
      .catch((failure: unknown) => current && setLoadError(errorMessage(failure)))
    return () => {
      current = false
    }
  }, [reloads])

  const save = async (values: RuleBody) => {
    setSaving(true)
    setSaveError(null)
    try {
      const saved = await saveRules({ ...values, keeperRankFactors: toFactors(values.keeperRankFactors) as number[] }, { silent: true })
      setRules(saved)
      form.setFieldsValue(withoutVersion(saved))
      toastSuccess(`已保存为规则版本 v${saved.version}`)
      onSaved?.(saved)
    } catch (failure) {
      setSaveError(errorMessage(failure))
    } finally {
      setSaving(false)
    }
  }

  if (loadError)
    return (
      <Result
        status="warning"
        title="规则加载失败"
        subTitle={loadError}
        extra={
          <Button type="primary" onClick={() => setReloads((count) => count + 1)}>
            重试
          </Button>
        }
      />
    )
  if (!rules) return <Skeleton active paragraph={{ rows: 10 }} />

  return (
    <Form<RuleBody> form={form} name="rules" layout="vertical" initialValues={withoutVersion(rules)} onFinish={save} data-testid="rules-form">
      <Flex justify="space-between" align="center" style={{ marginBottom: 16 }}>
        <Typography.Text>
          当前规则版本 <Tag color="blue" data-testid="rules-version">v{rules.version}</Tag>
        </Typography.Text>
        <Flex gap={8}>
          <Button onClick={() => form.resetFields()}>撤销修改</Button>
          <Button type="primary" htmlType="submit" loading={saving}>
            保存
          </Button>
        </Flex>
      </Flex>
      {saveError && <Alert type="error" showIcon title={saveError} role="alert" data-testid="rules-error" style={{ marginBottom: 16 }} />}
      <Alert type="info" showIcon style={{ marginBottom: 16 }} title="保存后生成新的规则版本，种子的官种标签和做种记录会按新规则重新判定；已发放的工资不受影响。" />
      <Flex vertical gap={16}>
        {ruleGroups.map((group) => (
          <Card key={group.title} size="small" title={group.title}>
            <Row gutter={24}>
              {group.fields.map((field) => (
                <Col key={field.name} xs={24} md={field.kind === 'tags' || field.kind === 'factors' ? 24 : 12} xl={field.kind === 'tags' || field.kind === 'factors' ? 12 : 8}>
                  <Form.Item
                    name={field.name}
                    label={ruleLabel(field.name)}
                    extra={field.help}
                    rules={rulesFor(field)}
                    normalize={field.kind === 'factors' ? toFactors : undefined}
                  >
                    {control(field, names)}
                  </Form.Item>
                </Col>
              ))}
            </Row>
          </Card>
        ))}
      </Flex>
    </Form>
  )
}
