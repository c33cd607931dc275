/** The toolbar's column settings: a checkbox per column; the last visible column stays on. */
import { SettingOutlined } from '@ant-design/icons'
import { Button, Checkbox, Flex, Popover, Tooltip, Typography } from 'antd'

export interface ColumnChoice {
  key: string
  title: string
}

interface ColumnSettingsProps {
  columns: readonly ColumnChoice[]
  hidden: readonly string[]
  onChange(hidden: string[]): void
  onReset(): void
}

export default function ColumnSettings({ columns, hidden, onChange, onReset }: ColumnSettingsProps) {
  const visibleCount = columns.filter(({ key }) => !hidden.includes(key)).length
  const toggle = (key: string, show: boolean) => onChange(show ? hidden.filter((k) => k !== key) : [...hidden, key])

  const content = (
    <Flex vertical gap={4} data-testid="column-settings" style={{ minWidth: 160 }}>
      {columns.map(({ key, title }) => {
        const visible = !hidden.includes(key)
        return (
          <Checkbox
            key={key}
            checked={visible}
            disabled={visible && visibleCount === 1}
            onChange={(event) => toggle(key, event.target.checked)}
          >
            {title}
          </Checkbox>
        )
      })}
    </Flex>
  )
  const title = (
    <Flex justify="space-between" align="center">
      <span>列设置</span>
      <Typography.Link onClick={onReset}>重置</Typography.Link>
    </Flex>
  )

  return (
    <Popover trigger="click" placement="bottomRight" title={title} content={content}>
      <Tooltip title="列设置">
        <Button type="text" icon={<SettingOutlined />} aria-label="列设置" />
      </Tooltip>
    </Popover>
  )
}
