/**
 * One echarts chart: created on mount, updated when `option` changes, resized with its box,
 * disposed on unmount, and re-created in echarts' dark theme when the console's theme is dark.
 */
import { useEffect, useRef, type CSSProperties } from 'react'
import { useSettingsStore } from '@renderer/stores/settings'
import { echarts, type ChartOption } from './echarts'

export type { ChartOption } from './echarts'

export interface ChartProps {
  option: ChartOption
  height?: number
  /** Read by screen readers and tests: what the chart shows. */
  ariaLabel?: string
  style?: CSSProperties
}

export default function Chart({ option, height = 300, ariaLabel, style }: ChartProps) {
  const boxRef = useRef<HTMLDivElement>(null)
  const chartRef = useRef<echarts.ECharts | null>(null)
  const optionRef = useRef(option)
  const dark = useSettingsStore((state) => state.navTheme === 'realDark')

  useEffect(() => {
    const box = boxRef.current
    if (!box) return
    const chart = echarts.init(box, dark ? 'dark' : undefined, { renderer: 'svg', locale: 'ZH' })
    // The card behind the chart paints the background in both themes.
    chart.setOption({ backgroundColor: 'transparent', ...optionRef.current })
    chartRef.current = chart
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => chart.resize())
    observer?.observe(box)
    return () => {
      observer?.disconnect()
      chartRef.current = null
      chart.dispose()
    }
  }, [dark])

  useEffect(() => {
    if (optionRef.current === option) return
    optionRef.current = option
    // notMerge: a series that went away must not linger from the previous option.
    chartRef.current?.setOption({ backgroundColor: 'transparent', ...option }, { notMerge: true })
  }, [option])

  return <div ref={boxRef} role="img" aria-label={ariaLabel} data-testid="chart" style={{ width: '100%', height, ...style }} />
}
