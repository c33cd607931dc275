import { MoonOutlined, SunOutlined } from '@ant-design/icons'
import { Button, Tooltip } from 'antd'
import { useSettingsStore } from '@renderer/stores/settings'

/** Header button that flips between the dark (`realDark`) and light themes and saves the choice. */
export default function ThemeSwitch() {
  const navTheme = useSettingsStore((state) => state.navTheme)
  const setNavTheme = useSettingsStore((state) => state.setNavTheme)
  const dark = navTheme === 'realDark'
  const label = dark ? '切换为亮色主题' : '切换为暗色主题'
  return (
    <Tooltip title={label}>
      <Button
        type="text"
        aria-label={label}
        data-testid="theme-switch"
        data-theme={navTheme}
        icon={dark ? <SunOutlined /> : <MoonOutlined />}
        onClick={() => void setNavTheme(dark ? 'light' : 'realDark')}
      />
    </Tooltip>
  )
}
