/** The search form above a table, built from the columns that declare a `search` field. */
import { Button, Col, Form, Input, Row, Select, Space } from 'antd'
import type { SearchItem } from './columns'

export type SearchValues = Record<string, unknown>

/** Form values → filters: empty strings and cleared selects mean "no filter". */
export function cleanValues(values: SearchValues): SearchValues {
  const clean: SearchValues = {}
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === null) continue
    if (typeof value === 'string' && value.trim() === '') continue
    clean[name] = typeof value === 'string' ? value.trim() : value
  }
  return clean
}

/** The control of one field; a plain element so Form.Item can hand it `value`/`onChange`/`id`. */
function fieldInput(item: SearchItem) {
  const { field, label } = item
  if (field.type === 'select') {
    return <Select allowClear options={field.options} placeholder={field.placeholder ?? `请选择${label}`} style={{ width: '100%' }} />
  }
  // A text box inside the <form> with a submit button: Enter submits (implicit submission).
  return <Input allowClear placeholder={field.placeholder ?? `请输入${label}`} />
}

interface SearchFormProps {
  items: readonly SearchItem[]
  /** Values to start with; 重置 clears every field (not back to these). */
  initialValues: SearchValues
  onSearch(values: SearchValues): void
}

export default function SearchForm({ items, initialValues, onSearch }: SearchFormProps) {
  const [form] = Form.useForm<SearchValues>()

  const reset = () => {
    form.setFieldsValue(Object.fromEntries(items.map(({ name }) => [name, undefined])))
    onSearch({})
  }

  return (
    <Form
      form={form}
      initialValues={initialValues}
      onFinish={(submitted) => onSearch(cleanValues(submitted))}
      data-testid="data-table-search"
    >
      <Row gutter={[16, 0]}>
        {items.map((item) => (
          <Col key={item.name} xs={24} sm={12} lg={8} xxl={6}>
            <Form.Item name={item.name} label={item.label} style={{ marginBottom: 16 }}>
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
