/** echarts options of 工资统计, as pure functions (the tests read them without drawing). */
import type { WageStats } from '@shared/entities'
import type { ChartOption } from '@renderer/components/Chart'
import { formatAmount } from '@renderer/utils/format'

export interface StatsColours {
  paid: string
  unpaid: string
  average: string
  median: string
  histogram: string
}

/** Axis labels of amounts: `12,000`, `1.2万`. */
export const axisAmount = (value: number): string =>
  Math.abs(value) >= 10_000 ? `${(value / 10_000).toLocaleString('zh-CN', { maximumFractionDigits: 1 })}万` : value.toLocaleString('zh-CN')

const amountTooltip = (value: unknown) => `${formatAmount(Number(value))} 魔力`

/** Paid and unpaid totals stacked per month. */
export function totalsOption(months: WageStats['months'], colours: StatsColours): ChartOption {
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: amountTooltip },
    legend: { bottom: 0 },
    grid: { left: 8, right: 16, top: 32, bottom: 40, containLabel: true },
    xAxis: { type: 'category', data: months.map((month) => month.period) },
    yAxis: { type: 'value', name: '魔力', axisLabel: { formatter: axisAmount } },
    series: [
      {
        type: 'bar',
        name: '已发放',
        stack: 'total',
        barMaxWidth: 36,
        itemStyle: { color: colours.paid },
        data: months.map((month) => month.paid),
      },
      {
        type: 'bar',
        name: '未发放',
        stack: 'total',
        barMaxWidth: 36,
        itemStyle: { color: colours.unpaid },
        data: months.map((month) => month.unpaid),
      },
    ],
  }
}

/** Average and median wage of the members with a wage, per month. */
export function averagesOption(months: WageStats['months'], colours: StatsColours): ChartOption {
  return {
    tooltip: { trigger: 'axis', valueFormatter: amountTooltip },
    legend: { bottom: 0 },
    grid: { left: 8, right: 16, top: 32, bottom: 40, containLabel: true },
    xAxis: { type: 'category', boundaryGap: false, data: months.map((month) => month.period) },
    yAxis: { type: 'value', name: '魔力', axisLabel: { formatter: axisAmount } },
    series: [
      {
        type: 'line',
        name: '平均工资',
        smooth: true,
        showSymbol: true,
        symbolSize: 8,
        itemStyle: { color: colours.average },
        data: months.map((month) => month.average),
      },
      {
        type: 'line',
        name: '中位工资',
        smooth: true,
        showSymbol: true,
        symbolSize: 8,
        itemStyle: { color: colours.median },
        data: months.map((month) => month.median),
      },
    ],
  }
}

/** `{ from: 0, to: 500 }` → `0–500`. */
export const binLabel = (bin: { from: number; to: number }): string => `${axisAmount(bin.from)}–${axisAmount(bin.to)}`

/** The newest month's wages in bins: members per amount range. */
export function distributionOption(distribution: WageStats['distribution'], colours: StatsColours): ChartOption {
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (value) => `${Number(value)} 人` },
    // containLabel leaves out the axis name: the right margin holds 魔力 after the axis end.
    grid: { left: 8, right: 40, top: 24, bottom: 8, containLabel: true },
    xAxis: {
      type: 'category',
      name: '魔力',
      data: distribution.map(binLabel),
      axisLabel: { interval: 0, rotate: distribution.length > 6 ? 30 : 0 },
    },
    yAxis: { type: 'value', name: '人数', minInterval: 1 },
    series: [
      {
        type: 'bar',
        name: '人数',
        barCategoryGap: '4%',
        itemStyle: { color: colours.histogram },
        label: { show: true, position: 'top' },
        data: distribution.map((bin) => bin.count),
      },
    ],
  }
}
