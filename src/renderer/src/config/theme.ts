import { theme, type ThemeConfig } from 'antd'
import type { NavTheme } from '@shared/enums'

/**
 * The brand green. White text on it (the primary button) is 3.3:1 in the light theme — below the 4.5:1 the other
 * colours here reach; kept as the brand colour on purpose.
 */
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

/**
 * The seed of the link colour (「查看我的任务」 on 首页, table links). The default blue is 4.1:1 on white and, darkened
 * by the dark algorithm, 3.5:1 on the dark card (#1668dc on #141414). A darker blue (light) and a lighter one that
 * the dark algorithm turns into #5993d2 (dark) reach 4.5:1: 6.0:1 on white and 5.7:1 on the dark card.
 */
export const LINK_COLORS: Record<NavTheme, string> = { light: '#0958d9', realDark: '#65a9f3' }

/**
 * The text of the coloured tags (status, claim, payment …: 12 px). antd writes a preset colour's tag in shade 7 of
 * the colour on shade 1, and a status tag (success, processing, error, warning) in the status colour on its tint:
 * in the light theme lime, gold, yellow, orange, green, cyan and volcano, and every status, fall to 1.8–4.4:1; in the
 * dark theme purple, geekblue and the processing and error statuses do. These are the same colours' next shades that
 * reach 4.5:1 on their tint (config/theme.test.ts checks every preset and status in both themes); the tag's tint and
 * border stay the algorithm's.
 */
export const TAG_TEXT_COLORS: Record<NavTheme, Record<string, string>> = {
  light: {
    lime7: '#3f6600',
    gold7: '#874d00',
    yellow7: '#876800',
    orange7: '#ad4e00',
    green7: '#237804',
    cyan7: '#006d75',
    volcano7: '#ad2102',
    colorSuccess: '#237804',
    colorInfo: '#0958d9',
    colorError: '#cf1322',
    colorWarning: '#874d00',
  },
  realDark: {
    purple7: '#ab7ae0',
    geekblue7: '#7f9ef3',
    red7: '#f37370',
    colorInfo: '#65a9f3',
    colorError: '#f37370',
  },
}

export function themeConfig(navTheme: NavTheme): ThemeConfig {
  return {
    algorithm: navTheme === 'realDark' ? theme.darkAlgorithm : theme.defaultAlgorithm,
    token: { colorPrimary: PRIMARY_COLOR, colorLink: LINK_COLORS[navTheme] },
    components: { Menu: SELECTED_MENU_COLORS[navTheme], Tag: TAG_TEXT_COLORS[navTheme] },
  }
}
