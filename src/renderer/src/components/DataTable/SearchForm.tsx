/** The search form above a table, built from the columns that declare a `search` field. */
import { useId } from 'react'
import { Button, Col, Form, Input, Row, Select, Space, type FormRule } from 'antd'
import { toAsciiNumber } from '@renderer/utils/numberText'
import { submitOnEnter } from '@renderer/utils/submitOnEnter'
import type { SearchItem } from './columns'

export type SearchValues = Record<string, unknown>

/** The number a whole-number field holds (full-width digits count), or null when it holds none in its range. */
function searchInteger(value: unknown, { min, max }: { min: number; max: number }): number | null {
  const digits = toAsciiNumber(String(value)).trim()
  if (!/^\d+$/.test(digits)) return null
  const number = Number(digits)
  return number >= min && number <= max ? number : null
}

const isEmpty = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '')

/** Form values → filters: empty strings and cleared selects mean "no filter"; whole-number fields as numbers. */
export function cleanValues(values: SearchValues, items: readonly SearchItem[]): SearchValues {
  const clean: SearchValues = {}
  for (const [name, value] of Object.entries(values)) {
    if (isEmpty(value)) continue
    const { field } = items.find((item) => item.name === name) ?? {}
    const filter = field?.type === 'integer' ? searchInteger(value, field) : typeof value === 'string' ? value.trim() : value
    if (filter !== null) clean[name] = filter
  }
  return clean
}

/** Checks a field before anything is sent: a refused search would only answer 加载失败. */
function fieldRules({ field, label }: SearchItem): FormRule[] {
  if (field.type !== 'integer') return []
  return [
    {
      validator: async (_, value: unknown) => {
        if (!isEmpty(value) && searchInteger(value, field) === null) throw new Error(`${label}应为 ${field.min} 到 ${field.max} 之间的整数`)
      },
    },
  ]
}

/** The control of one field; a plain element so Form.Item can hand it `value`/`onChange`/`id`. */
function fieldInput({ field, label }: SearchItem) {
  if (field.type === 'select') {
    return <Select allowClear options={field.options} placeholder={field.placeholder ?? `请选择${label}`} style={{ width: '100%' }} />
  }
  // A text box inside the <form> with a submit button: Enter submits (implicit submission).
  return (
    <Input
      allowClear
      placeholder={field.placeholder ?? `请输入${label}`}
      maxLength={field.type === 'text' ? field.maxLength : undefined}
      inputMode={field.type === 'integer' ? 'numeric' : undefined}
    />
  )
}

interface SearchFormProps {
  items: readonly SearchItem[]
  /** Values to start with; 重置 clears every field (not back to these). */
  initialValues: SearchValues
  onSearch(values: SearchValues): void
}

export default function SearchForm({ items, initialValues, onSearch }: SearchFormProps) {
  const [form] = Form.useForm<SearchValues>()
  // antd ids a field by the form's name and its own: without a name of its own, a drawer's 状态 and the page's behind it
  // shared the id `status`, and the drawer's label pointed at the page's field (as FormModal's names avoid).
  const formName = `search${useId().replace(/[^a-zA-Z0-9]/g, '')}`

  const reset = () => {
    form.setFields(items.map(({ name }) => ({ name, value: undefined, errors: [] })))
    onSearch({})
  }

  return (
    <Form
      form={form}
      name={formName}
      initialValues={initialValues}
      onFinish={(submitted) => onSearch(cleanValues(submitted, items))}
      onKeyDownCapture={submitOnEnter(form)}
      data-testid="data-table-search"
    >
      <Row gutter={[16, 0]}>
        {items.map((item) => (
          <Col key={item.name} xs={24} sm={12} lg={8} xxl={6}>
            <Form.Item name={item.name} label={item.label} rules={fieldRules(item)} style={{ marginBottom: 16 }}>
              {fieldInput(item)}
            </Form.Item>
          </Col>
        ))}
        <Col flex="auto" style={{ textAlign: 'right', marginBottom: 16 }}>
          <Space>
            <Button onClick={reset}>重置</Button>
            <Button type="primary" htmlType="submit">
              查询
            </Button>
          </Space>
        </Col>
      </Row>
    </Form>
  )
}
