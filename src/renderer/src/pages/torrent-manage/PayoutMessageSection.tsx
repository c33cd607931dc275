/**
 * 站内信模板 on the rules form: the subject and body of the member's message when wages are paid
 * into the site, the placeholders it may use, and a live preview with an example member — the
 * same rendering the server's dry run and payout use.
 */
import { Button, Card, Col, Form, Input, Popconfirm, Row, Tag, Tooltip, Typography } from 'antd'
import type { FormInstance } from 'antd'
import type { RuleBody } from '@shared/entities'
import {
  defaultPayoutMessageTemplate,
  PAYOUT_BODY_MAX,
  PAYOUT_SUBJECT_MAX,
  payoutPlaceholders,
  placeholderProblem,
  renderPayoutTemplate,
  type PayoutMessageTemplate,
  type PayoutTemplateValues,
} from '@shared/payout-template'

/** An example member for the preview (the dry run on 工资计算 shows each real one). */
export const examplePayoutValues: PayoutTemplateValues = {
  用户名: 'alice',
  月份: '2026-10',
  金额: '1234.6',
  魔力变化: '，魔力 5000.0 → 6234.6',
  达标数: '12',
  达标体积: '1.50 TiB',
  未达标数: '2',
  未达标明细: [
    '未达标的种子（2 个，不计工资）：',
    '- 星河 Official.2024.1080p：做种 120.0 小时，未达到 300 小时',
    '- 远山 Official.2023.720p：站点账号已禁用',
  ].join('\n'),
  排名: '第 3 名（共 20 人）',
  舍入说明: '（工资按站点魔力保留一位小数：1234.56 → 1234.6）',
}

const subjectPath: ['payoutMessageTemplate', 'subject'] = ['payoutMessageTemplate', 'subject']
const bodyPath: ['payoutMessageTemplate', 'body'] = ['payoutMessageTemplate', 'body']

/** The form's value: the saved template, or the default for rules without one. */
export const templateForForm = (saved: PayoutMessageTemplate | undefined): PayoutMessageTemplate =>
  saved ?? { ...defaultPayoutMessageTemplate }

/** The default is saved as "no template", so later versions of the default reach such sites. */
export const templateToSave = (value: PayoutMessageTemplate | undefined): PayoutMessageTemplate | undefined =>
  !value || (value.subject === defaultPayoutMessageTemplate.subject && value.body === defaultPayoutMessageTemplate.body) ? undefined : value

const templateRules = (label: string) => [
  {
    validator: async (_: unknown, value: string | undefined) => {
      if (!value || !value.trim()) throw new Error(`请输入${label}`)
      const problem = placeholderProblem(value)
      if (problem) throw new Error(`${label}：${problem}`)
    },
  },
]

export default function PayoutMessageSection({ form }: { form: FormInstance<RuleBody> }) {
  const subject = Form.useWatch(subjectPath, form) as string | undefined
  const body = Form.useWatch(bodyPath, form) as string | undefined
  const problem = placeholderProblem(`${subject ?? ''}\n${body ?? ''}`)

  return (
    <Card
      size="small"
      title="站内信模板"
      data-testid="payout-template"
      extra={
        // Replaces what the admin typed in both fields: asked first.
        <Popconfirm
          title="恢复默认的站内信模板？"
          description="站内信标题和正文将换成默认内容，保存规则后才生效。"
          okText="恢复默认"
          cancelText="取消"
          onConfirm={() => form.setFieldsValue({ payoutMessageTemplate: { ...defaultPayoutMessageTemplate } })}
        >
          <Button size="small">恢复默认</Button>
        </Popconfirm>
      }
    >
      <Typography.Paragraph type="secondary">
        工资发放到站点时发给每位保种员的站内信。点击占位符插入到正文末尾；发放前在「工资计算 →
        发放到站点」的预览中可以看到每个人实际收到的内容。
      </Typography.Paragraph>
      <Row gutter={24}>
        <Col xs={24} xl={12}>
          <Form.Item name={subjectPath} label="站内信标题" rules={templateRules('站内信标题')}>
            <Input maxLength={PAYOUT_SUBJECT_MAX} />
          </Form.Item>
          <Form.Item
            name={bodyPath}
            label="站内信正文"
            rules={templateRules('站内信正文')}
            extra="只有占位符的一行在其内容为空时（例如全部达标时的 {未达标明细}）整行省略。"
          >
            <Input.TextArea autoSize={{ minRows: 8, maxRows: 20 }} maxLength={PAYOUT_BODY_MAX} />
          </Form.Item>
          <Typography.Text type="secondary">可用的占位符：</Typography.Text>
          <div style={{ marginTop: 4 }}>
            {Object.entries(payoutPlaceholders).map(([name, help]) => (
              <Tooltip key={name} title={help}>
                <Tag
                  style={{ cursor: 'pointer', marginBottom: 4 }}
                  onClick={() => form.setFieldValue(bodyPath, `${(form.getFieldValue(bodyPath) as string | undefined) ?? ''}{${name}}`)}
                >{`{${name}}`}</Tag>
              </Tooltip>
            ))}
          </div>
        </Col>
        <Col xs={24} xl={12}>
          <Typography.Text strong>预览（示例保种员）</Typography.Text>
          <div
            data-testid="payout-template-preview"
            style={{ marginTop: 8, padding: 12, border: '1px solid rgba(128,128,128,0.3)', borderRadius: 6 }}
          >
            {problem ? (
              <Typography.Text type="danger">{problem}</Typography.Text>
            ) : (
              <>
                <Typography.Text strong data-testid="payout-template-preview-subject">
                  {renderPayoutTemplate(subject ?? '', examplePayoutValues)}
                </Typography.Text>
                <pre
                  data-testid="payout-template-preview-body"
                  style={{ whiteSpace: 'pre-wrap', fontFamily: 'inherit', margin: '8px 0 0' }}
                >
                  {renderPayoutTemplate(body ?? '', examplePayoutValues)}
                </pre>
              </>
            )}
          </div>
        </Col>
      </Row>
    </Card>
  )
}
