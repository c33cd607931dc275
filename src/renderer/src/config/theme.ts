import { theme, type ThemeConfig } from 'antd'
import type { NavTheme } from '@shared/enums'

export const PRIMARY_COLOR = '#0BA348'

export function themeConfig(navTheme: NavTheme): ThemeConfig {
  return {
    algorithm: navTheme === 'realDark' ? theme.darkAlgorithm : theme.defaultAlgorithm,
    token: { colorPrimary: PRIMARY_COLOR },
  }
}
