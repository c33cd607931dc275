/**
 * echarts, tree-shaken: only the charts and components the console draws. Imported by the Chart
 * wrapper alone, so it lands in the lazily loaded chunks of the pages that show charts.
 *
 * SVG renderer: our charts hold a few dozen marks, where SVG is as fast as canvas, stays sharp at
 * any zoom, and (unlike canvas) also renders under the unit tests' DOM.
 */
import { BarChart, LineChart, PieChart, type BarSeriesOption, type LineSeriesOption, type PieSeriesOption } from 'echarts/charts'
import {
  GridComponent,
  LegendComponent,
  TooltipComponent,
  type GridComponentOption,
  type LegendComponentOption,
  type TooltipComponentOption,
} from 'echarts/components'
import * as echarts from 'echarts/core'
import { SVGRenderer } from 'echarts/renderers'

echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer])

export type ChartOption = echarts.ComposeOption<
  BarSeriesOption | LineSeriesOption | PieSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption
>

export { echarts }
