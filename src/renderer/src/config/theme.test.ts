/**
 * Small text in both themes reaches WCAG AA (4.5:1) against what it is drawn on: every coloured tag (the preset
 * colours and the four statuses, as antd draws them with this theme's overrides), links on a card and on the page,
 * and the selected menu entry. The brand primary button (white on #0BA348, 3.3:1) is the known exception.
 */
import { describe, expect, it } from 'vitest'
import { theme } from 'antd'
import { PresetColors } from 'antd/es/theme/interface'
import type { NavTheme } from '@shared/enums'
import { LINK_COLORS, PRIMARY_COLOR, SELECTED_MENU_COLORS, TAG_TEXT_COLORS, themeConfig } from './theme'

type Rgb = { r: number; g: number; b: number; a: number }

function parse(color: string): Rgb {
  if (color.startsWith('#')) {
    const hex = color.length === 4 ? [...color.slice(1)].map((c) => c + c).join('') : color.slice(1)
    const a = hex.length === 8 ? parseInt(hex.slice(6, 8), 16) / 255 : 1
    return { r: parseInt(hex.slice(0, 2), 16), g: parseInt(hex.slice(2, 4), 16), b: parseInt(hex.slice(4, 6), 16), a }
  }
  const [r = 0, g = 0, b = 0, a = 1] = (color.match(/[\d.]+/g) ?? []).map(Number)
  return { r, g, b, a }
}

const over = (top: Rgb, under: Rgb): Rgb => ({
  r: top.r * top.a + under.r * (1 - top.a),
  g: top.g * top.a + under.g * (1 - top.a),
  b: top.b * top.a + under.b * (1 - top.a),
  a: 1,
})

function luminance({ r, g, b }: Rgb): number {
  const channel = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
}

/** WCAG contrast of `text` drawn on `background` (itself drawn on `base`). */
function contrast(text: string, background: string, base: string): number {
  const bg = over(parse(background), parse(base))
  const [light, dark] = [luminance(over(parse(text), bg)), luminance(bg)].sort((x, y) => y - x)
  return (light! + 0.05) / (dark! + 0.05)
}

const themes: NavTheme[] = ['light', 'realDark']

describe.each(themes)('%s theme: small text reaches 4.5:1', (navTheme) => {
  const config = themeConfig(navTheme)
  const token = theme.getDesignToken(config) as unknown as Record<string, string>
  const tagText = (key: string) => TAG_TEXT_COLORS[navTheme][key] ?? token[key]!
  const base = token.colorBgContainer!

  it('the tags of every preset colour (text on its tint)', () => {
    const poor = PresetColors.map((color) => [color, contrast(tagText(`${color}7`), token[`${color}1`]!, base)] as const).filter(
      ([, ratio]) => ratio < 4.5,
    )
    expect(poor).toEqual([])
  })

  it('the status tags (success, processing, error, warning)', () => {
    const poor = ['Success', 'Info', 'Error', 'Warning']
      .map((status) => [status, contrast(tagText(`color${status}`), token[`color${status}Bg`]!, base)] as const)
      .filter(([, ratio]) => ratio < 4.5)
    expect(poor).toEqual([])
  })

  it('the tag without a colour', () => {
    expect(contrast(token.colorText!, token.colorFillQuaternary!, base)).toBeGreaterThanOrEqual(4.5)
  })

  it('links, on a card and on the page', () => {
    expect(config.token?.colorLink).toBe(LINK_COLORS[navTheme])
    // The link colour as the algorithm derives it from the seed (the dark one darkens it).
    expect(contrast(token.colorLink!, base, base)).toBeGreaterThanOrEqual(4.5)
    expect(contrast(token.colorLink!, token.colorBgLayout!, token.colorBgLayout!)).toBeGreaterThanOrEqual(4.5)
  })

  it('the selected menu entry', () => {
    const { itemSelectedColor, itemSelectedBg } = SELECTED_MENU_COLORS[navTheme]
    expect(contrast(itemSelectedColor, itemSelectedBg, base)).toBeGreaterThanOrEqual(4.5)
  })

  it('keeps the brand green as the primary colour', () => {
    expect(config.token?.colorPrimary).toBe(PRIMARY_COLOR)
  })
})
