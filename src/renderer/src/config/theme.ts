import { theme, type ThemeConfig } from 'antd'
import type { NavTheme } from '@shared/enums'

export const PRIMARY_COLOR = '#0BA348'

/**
 * The selected side-menu entry (the page one is on) in each theme. The algorithm's own pair is primary text on
 * the primary tint: 2.8:1 under realDark (#0C8E40 on #113F24) and 2.4:1 under light (#0BA348 on #CCE3D2), too
 * faint for 14 px text. These keep the green and reach WCAG AA (≥ 4.5:1): 6.5:1 dark, 5.4:1 light.
 */
export const SELECTED_MENU_COLORS: Record<NavTheme, { itemSelectedColor: string; itemSelectedBg: string }> = {
  realDark: { itemSelectedColor: '#5FD68A', itemSelectedBg: '#113F24' },
  light: { itemSelectedColor: '#06722F', itemSelectedBg: '#E6F6EC' },
}

export function themeConfig(navTheme: NavTheme): ThemeConfig {
  return {
    algorithm: navTheme === 'realDark' ? theme.darkAlgorithm : theme.defaultAlgorithm,
    token: { colorPrimary: PRIMARY_COLOR },
    components: { Menu: SELECTED_MENU_COLORS[navTheme] },
  }
}
