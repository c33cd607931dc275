/** The toolbar's column settings: a checkbox per column; the last visible column stays on. Esc closes it. */
import { useEffect, useRef, useState } from 'react'
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
  const [open, setOpen] = useState(false)
  const button = useRef<HTMLButtonElement>(null)
  // antd closes only the top-most open popup on Esc, and the button's hover tooltip (opened after the
  // popover) was that one: the list stayed open over the rows' actions. Esc closes it wherever the focus is,
  // and the focus goes back to the button.
  useEffect(() => {
    if (!open) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.isComposing) return
      setOpen(false)
      button.current?.focus()
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [open])
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
    <Popover trigger="click" placement="bottomRight" title={title} content={content} open={open} onOpenChange={setOpen}>
      {/* No tooltip over the open list it names. */}
      <Tooltip title={open ? undefined : '列设置'}>
        <Button ref={button} type="text" icon={<SettingOutlined />} aria-label="列设置" />
      </Tooltip>
    </Popover>
  )
}
