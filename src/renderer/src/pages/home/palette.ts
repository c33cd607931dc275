import { useMemo } from 'react'
import { theme } from 'antd'
import type { Palette } from './chartOptions'

const PRESET_COLOURS = [
  'blue',
  'purple',
  'cyan',
  'green',
  'magenta',
  'pink',
  'red',
  'orange',
  'yellow',
  'volcano',
  'geekblue',
  'lime',
  'gold',
] as const

/** Chart colours from the antd theme, so a bar matches the tag of the same status. */
export function usePalette(): Palette {
  const { token } = theme.useToken()
  return useMemo(() => {
    const palette: Palette = { default: token.colorTextTertiary, primary: token.colorPrimary }
    for (const name of PRESET_COLOURS) palette[name] = token[name]
    return palette
  }, [token])
}
