/**
 * 官种规则: every rule field with its Chinese label and help text. Saving creates a new rule
 * version (the server re-labels torrents and records); a refused save shows the server's message
 * and keeps what was typed. Unsaved edits are kept as a draft (utils/formDraft) through a login that
 * ended, a re-login, or leaving the page by the menu, and shown again when the page returns.
 */
import { useEffect, useRef, useState } from 'react'
import {
  Alert,
  Button,
  Card,
  Col,
  Flex,
  Form,
  Input,
  Popconfirm,
  Result,
  Row,
  Select,
  Skeleton,
  Tag,
  Typography,
  theme,
  type FormRule,
} from 'antd'
import { nexusphpClaimsPreset, wageModeLabels, wageModes, type RuleBody, type Rules, type SiteOptions } from '@shared/entities'
import { errorMessage } from '@renderer/components/FormModal'
import NumberInput from '@renderer/components/NumberInput'
import { useApi } from '@renderer/hooks/useApi'
import { useCurrentUser } from '@renderer/stores/user'
import { saveRules } from '@renderer/services/config'
import { RequestError } from '@renderer/services/request'
import { emptySiteOptions } from '@renderer/services/site'
import { toastSuccess } from '@renderer/utils/feedback'
import { clearDraft, readDraft, sameValues, writeDraft, type FormDraft } from '@renderer/utils/formDraft'
import { rankFactorBounds, ruleNumberRule } from '@renderer/utils/formLimits'
import { toAsciiNumber } from '@renderer/utils/numberText'
import PayoutClaimsSection, { claimsToSave } from './PayoutClaimsSection'
import PayoutMessageSection, { templateForForm, templateToSave } from './PayoutMessageSection'
import { ruleGroups, ruleLabel, type RuleField, type RuleFieldSpec } from './ruleFields'

/** The form's values: the saved template, or the default shown for rules without one. */
const withoutVersion = ({ version: _version, ...body }: Rules): RuleBody => ({
  ...body,
  // Absent means 本站规则 (entities.ts `wageModes`): shown as chosen, not as a grey placeholder that reads as unset.
  mode: body.mode ?? 'team',
  payoutMessageTemplate: templateForForm(body.payoutMessageTemplate),
  // Set even when the rules leave them out (off, the default deduction): a form set to these values (撤销修改 of a
  // restored draft) must lose a draft's switch and deduction, not keep them.
  settleClaims: body.settleClaims ?? false,
  claimRemoveDeduction: body.claimRemoveDeduction,
})

/** The fields the NexusPHP preset sets, besides the mode. */
const presetFields = Object.keys(nexusphpClaimsPreset).filter((key) => key !== 'mode') as (keyof RuleBody)[]

/**
 * 本站规则 is sent as the server has it: rules without the field stay without it (servers before 0.3.8 counted
 * absent → `team` as a change: a new version and a re-labelling pass for nothing).
 */
const modeToSave = (mode: RuleBody['mode'], saved: RuleBody['mode']): RuleBody['mode'] =>
  mode === 'team' && saved === undefined ? undefined : mode

/** Tags typed into the factors box arrive as text (full-width `０．８` too); numbers stay numbers, the rest is left for the validator. */
export const toFactors = (values: readonly (string | number)[] | undefined): (string | number)[] =>
  (values ?? []).map((value) => {
    const text = typeof value === 'string' ? toAsciiNumber(value).trim() : ''
    return text !== '' && Number.isFinite(Number(text)) ? Number(text) : value
  })

/** The synced site names a tags field offers (teams for 官方制作组, tags for 官方标签). */
/** The rules field a server message names first (`<label>：…`), if any. */
function fieldNamed(message: string): RuleField | null {
  const label = message.split('：')[0]
  for (const group of ruleGroups) for (const field of group.fields) if (ruleLabel(field.name) === label) return field.name
  return null
}

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
      if (!offered.length)
        return (
          <Select
            mode="tags"
            tokenSeparators={[',', '，']}
            open={false}
            suffixIcon={null}
            placeholder="输入后按回车添加"
            style={{ width: '100%' }}
          />
        )
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
      return (
        <Select
          mode="tags"
          tokenSeparators={[',', '，', ' ']}
          open={false}
          suffixIcon={null}
          placeholder="例如 1, 0.8, 0.6, 0.3"
          style={{ width: '100%' }}
        />
      )
    case 'text':
      return <Input />
    case 'mode':
      return <Select options={wageModes.map((mode) => ({ value: mode, label: wageModeLabels[mode] }))} style={{ width: '100%' }} />
    default:
      return <NumberInput precision={field.kind === 'integer' ? 0 : undefined} suffix={field.unit} style={{ width: '100%' }} />
  }
}

function rulesFor(field: RuleFieldSpec) {
  const label = ruleLabel(field.name)
  if (field.kind === 'factors') {
    return [
      {
        validator: async (_: unknown, value: unknown[] | undefined) => {
          if (!value || value.length === 0) throw new Error(`请输入${label}`)
          if (value.some((item) => typeof item !== 'number' || item < rankFactorBounds.min || item > rankFactorBounds.max))
            throw new Error(`${label}只能是 ${rankFactorBounds.min}–${rankFactorBounds.max} 之间的数字`)
        },
      },
    ]
  }
  if (field.kind === 'tags' || field.kind === 'mode') return []
  if (field.kind === 'text') return [{ required: true }]
  const rules: FormRule[] = [{ required: true }, ruleNumberRule(field.name)]
  // Allowed by the contract, but rarely meant (倍率 0: every wage is 0): said, without refusing the save.
  const { zeroWarning } = field
  if (zeroWarning)
    rules.push({
      warningOnly: true,
      validator: async (_: unknown, value: unknown) => {
        if (value === 0) throw new Error(zeroWarning)
      },
    })
  return rules
}

/** Where the rules form keeps its unsaved values (utils/formDraft). */
const DRAFT_PAGE = 'torrentManage.rules'

export interface RulesFormProps {
  /** After a save (the torrent list shows the new labels). */
  onSaved?(rules: Rules): void
}

export default function RulesForm({ onSaved }: RulesFormProps) {
  const [form] = Form.useForm<RuleBody>()
  const { token } = theme.useToken()
  const {
    data: rules,
    error: loadError,
    isValidating: reloading,
    mutate: mutateRules,
  } = useApi('config.rules', undefined, { silent: true })
  const [saveError, setSaveError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  // Set before the first await: a second Enter before React re-renders (or while saving) sends nothing.
  const inFlight = useRef(false)
  // The parameters the NexusPHP preset replaced, put back when the admin returns to 本站规则 before saving.
  const beforePreset = useRef<Partial<RuleBody> | null>(null)
  // Unsaved edits from before (a save refused because the login ended, or the page left by the menu): the form
  // opens with them, on the version they were made on.
  const userId = useCurrentUser()?.id ?? 0
  const [restored, setRestored] = useState<FormDraft<RuleBody> | null>(() => readDraft<RuleBody>(DRAFT_PAGE, userId))
  // The version the form's values came from (not the one a later re-read shows): a save made on it is refused once
  // another admin saved a newer one, instead of silently undoing their change.
  const formVersion = useRef<number | null>(restored?.version ?? null)
  useEffect(() => {
    if (!rules) return
    if (formVersion.current === null) formVersion.current = rules.version
    // A newer version read while the form holds no unsaved edit (the page opened from the cache of an earlier visit,
    // then its re-read; another admin's save): the form shows that version's values, not the old ones under its tag.
    // Unsaved edits stay, on the version they were made on (a save is then refused and says so).
    else if (formVersion.current !== rules.version && readDraft<RuleBody>(DRAFT_PAGE, userId) === null) {
      formVersion.current = rules.version
      beforePreset.current = null
      form.setFieldsValue(withoutVersion(rules))
    }
  }, [rules, form, userId])
  // The site's team and tag names, offered by the two official-torrent lists (free typing stays;
  // a failure leaves them empty).
  const { data: names = emptySiteOptions } = useApi('site.options', undefined, { silent: true })

  // What the form holds, kept as a draft while it differs from the rules (the form is shown only once they are read).
  const keepDraft = () => {
    if (!rules) return
    const values = form.getFieldsValue(true) as RuleBody
    // settleClaims absent is off: a switch turned on and off again is no edit.
    const asSaved = (body: RuleBody) => ({ ...body, settleClaims: body.settleClaims ?? false })
    if (sameValues(asSaved(values), asSaved(withoutVersion(rules)))) clearDraft(DRAFT_PAGE, userId)
    else writeDraft(DRAFT_PAGE, userId, { version: formVersion.current ?? rules.version, values })
  }
  const keepDraftOnLeave = useRef(keepDraft)
  useEffect(() => {
    keepDraftOnLeave.current = keepDraft
  })
  // Leaving the page (by the menu, or to the login page after a 401) keeps what was typed.
  useEffect(() => () => keepDraftOnLeave.current(), [])
  const forgetDraft = () => {
    clearDraft(DRAFT_PAGE, userId)
    setRestored(null)
  }

  const save = async (values: RuleBody) => {
    if (inFlight.current) return
    inFlight.current = true
    setSaving(true)
    setSaveError(null)
    try {
      const saved = await saveRules(
        {
          ...values,
          mode: modeToSave(values.mode, rules?.mode),
          keeperRankFactors: toFactors(values.keeperRankFactors) as number[],
          payoutMessageTemplate: templateToSave(values.payoutMessageTemplate),
          ...claimsToSave(values),
          baseVersion: formVersion.current ?? rules?.version,
        },
        { silent: true },
      )
      formVersion.current = saved.version
      beforePreset.current = null
      forgetDraft()
      void mutateRules(saved, { revalidate: false })
      form.setFieldsValue(withoutVersion(saved))
      // The server answers the current version when nothing changed (no new version, no re-labelling).
      toastSuccess(saved.version === rules?.version ? `规则没有变化，仍为版本 v${saved.version}` : `已保存为规则版本 v${saved.version}`)
      onSaved?.(saved)
    } catch (failure) {
      const message = errorMessage(failure)
      setSaveError(message)
      // A login that ended sends the user to the login page: what was typed waits for them there.
      keepDraft()
      // Another admin saved a newer version: read it, so the version shown and 撤销修改 are the current ones.
      if (failure instanceof RequestError && failure.code === 409) void mutateRules()
      // The server names the field first (`时区：不是有效的时区`): show it on that field too and go there.
      const field = fieldNamed(message)
      if (field) {
        form.setFields([{ name: field, errors: [message.slice(message.indexOf('：') + 1)] }])
        form.scrollToField(field, { behavior: 'smooth', block: 'center' })
      }
    } finally {
      inFlight.current = false
      setSaving(false)
    }
  }

  // Once shown, the form stays (with what was typed) even if a later re-read fails.
  if (!rules && loadError)
    return (
      <Result
        status="warning"
        title="规则加载失败"
        subTitle={errorMessage(loadError)}
        extra={
          <Button type="primary" loading={reloading} onClick={() => void mutateRules()}>
            重试
          </Button>
        }
      />
    )
  if (!rules) return <Skeleton active paragraph={{ rows: 10 }} />

  return (
    <Form<RuleBody>
      form={form}
      name="rules"
      layout="vertical"
      initialValues={restored?.values ?? withoutVersion(rules)}
      onFinish={save}
      scrollToFirstError={{ behavior: 'smooth', block: 'center' }}
      onValuesChange={(changed: Partial<RuleBody>) => {
        // Choosing the NexusPHP preset brings NexusPHP's own parameters with it (still editable before saving);
        // choosing 本站规则 again gives back what the form held before, not NexusPHP's values left in place.
        if (changed.mode === 'nexusphpClaims') {
          beforePreset.current = form.getFieldsValue(presetFields) as Partial<RuleBody>
          form.setFieldsValue(nexusphpClaimsPreset)
        } else if (changed.mode !== undefined && beforePreset.current) {
          form.setFieldsValue(beforePreset.current)
          beforePreset.current = null
        }
        // The admin corrected the field the server refused: its message no longer describes what is there (as FormModal).
        const refused = saveError ? fieldNamed(saveError) : null
        if (refused && refused in changed) setSaveError(null)
        keepDraft()
      }}
      data-testid="rules-form"
    >
      <Flex justify="space-between" align="center" style={{ marginBottom: 16 }}>
        <Typography.Text>
          当前规则版本{' '}
          <Tag color="blue" data-testid="rules-version">
            v{rules.version}
          </Tag>
        </Typography.Text>
      </Flex>
      {restored && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="rules-draft"
          title={`已恢复上次未保存的修改${restored.version !== rules.version ? `（基于规则版本 v${restored.version}）` : ''}：这些修改还没有生效，点「保存」才会生成新的规则版本；不需要时点「撤销修改」。`}
        />
      )}
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        title="保存后生成新的规则版本，种子的官种标签和做种记录会按新规则重新判定；已发放的工资不受影响。"
      />
      <Flex vertical gap={16}>
        {ruleGroups.map((group) => (
          <Card key={group.title} size="small" title={group.title}>
            <Row gutter={24}>
              {group.fields.map((field) => (
                <Col
                  key={field.name}
                  xs={24}
                  md={field.kind === 'tags' || field.kind === 'factors' ? 24 : 12}
                  xl={field.kind === 'tags' || field.kind === 'factors' ? 12 : 8}
                >
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
        <PayoutMessageSection form={form} />
        <PayoutClaimsSection />
      </Flex>
      {/* A long form: its actions and the server's answer stay in view at the bottom while scrolling. */}
      <Flex
        vertical
        gap={8}
        data-testid="rules-actions"
        style={{
          position: 'sticky',
          bottom: 0,
          zIndex: 2,
          marginTop: 16,
          padding: '12px 0',
          background: token.colorBgContainer,
          borderTop: `1px solid ${token.colorBorderSecondary}`,
        }}
      >
        {saveError && <Alert type="error" showIcon title={saveError} role="alert" data-testid="rules-error" />}
        <Flex gap={8} justify="flex-end">
          {/* One click would throw away every edit of a long form: asked first. */}
          <Popconfirm
            title="撤销所有未保存的修改？"
            description="表单将恢复为当前规则版本的值。"
            okText="撤销修改"
            cancelText="取消"
            onConfirm={() => {
              form.resetFields()
              // The form may have opened with a draft: back to the rules themselves, and the draft is gone.
              form.setFieldsValue(withoutVersion(rules))
              forgetDraft()
              // Reset to the rules as last read: the current version, if another admin saved one.
              formVersion.current = rules.version
              setSaveError(null)
            }}
          >
            <Button>撤销修改</Button>
          </Popconfirm>
          <Button type="primary" htmlType="submit" loading={saving}>
            保存
          </Button>
        </Flex>
      </Flex>
    </Form>
  )
}
