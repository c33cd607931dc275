/**
 * echarts options of the dashboard, as pure functions of the figures and a palette (so the
 * colours follow the antd theme and the tests can read the options without drawing them).
 */
import type { AllSeedingStats, ByStatus, UserSeedingStats, WageRankEntry } from '@shared/entities'
import { CompletionLabel, completionLabels, seedStatusColors, seedStatusLabels, seedStatusValues } from '@shared/enums'
import type { ChartOption } from '@renderer/components/Chart'
import { completionColors } from '@renderer/components/StatusTags'
import { formatAmount, formatBytes, formatCount } from '@renderer/utils/format'
import { byteAxisRange, byteTickLabel } from './byteAxis'
import { lastDays, type ChartDay } from './stats'

/** The figures of the days that have them (an axis's range ignores the days without). */
const known = <T>(days: readonly ChartDay<T>[], value: (figures: T) => number): number[] =>
  days.flatMap((day) => (day.figures ? [value(day.figures)] : []))

/** antd preset colours by tag colour name (`green` → `#52c41a`), plus the grey of `default` tags. */
export type Palette = Record<string, string> & { default: string; primary: string }

const tagColour = (palette: Palette, name: string): string => palette[name] ?? palette.default

/** `2025-03-14` → `03-14`: the year is the same across a 30-day axis. */
const shortDate = (date: string): string => date.slice(5)

/** Axis labels of byte values: one decimal, dropped when it is 0 (`1.2 PiB`, `819 TiB`, `0 B`). */
export const axisBytes = (value: number): string => formatBytes(value, 1).replace(/\.0 /, ' ')

/** A value axis of bytes: round binary steps, every tick in the step's unit (`axisBytes` while all are 0). */
function byteAxis(values: readonly number[]) {
  const range = byteAxisRange(values)
  return { ...range, axisLabel: { formatter: range.interval === undefined ? axisBytes : byteTickLabel(range.interval) } }
}

/** Count labels on bars and slices: `58,422`. */
const countLabel = ({ value }: { value: unknown }): string => formatCount(Number(value))

/** Room under a line chart's x axis labels for the legend at the bottom. */
const LEGEND_GRID_BOTTOM = 52

const completionValues = Object.values(CompletionLabel)

/** Records by seeding status: one horizontal bar per status, in the status tag's colour. */
export function statusOption(byStatus: ByStatus, palette: Palette): ChartOption {
  // Top to bottom in wire order: echarts draws category 0 at the bottom of a y axis.
  const statuses = [...seedStatusValues].reverse()
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid: { left: 8, right: 48, top: 8, bottom: 8 },
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', data: statuses.map((status) => seedStatusLabels[status]) },
    series: [
      {
        type: 'bar',
        name: '记录数',
        barMaxWidth: 22,
        label: { show: true, position: 'right', formatter: countLabel },
        data: statuses.map((status) => ({ value: byStatus[status], itemStyle: { color: tagColour(palette, seedStatusColors[status]) } })),
      },
    ],
  }
}

/** Torrents by completion label: a donut in the completion tags' colours. */
export function completionOption(byCompletion: AllSeedingStats['byCompletion'], palette: Palette): ChartOption {
  return {
    tooltip: {
      trigger: 'item',
      formatter: (params) => {
        const { name, value, percent } = Array.isArray(params) ? params[0]! : params
        return `${name}：${formatCount(Number(value))}（${percent ?? 0}%）`
      },
    },
    legend: { bottom: 0 },
    series: [
      {
        type: 'pie',
        name: '种子完成情况',
        radius: ['42%', '68%'],
        center: ['50%', '45%'],
        label: { formatter: ({ name, value }) => `${name}\n${formatCount(Number(value))}` },
        data: completionValues.map((label) => ({
          name: completionLabels[label],
          value: byCompletion[label],
          itemStyle: { color: tagColour(palette, completionColors[label]) },
        })),
      },
    ],
  }
}

/** The team's seeding volume (left axis) and seeding records (right axis) over the last 30 days. */
export function teamDailyOption(daily: AllSeedingStats['daily'], palette: Palette): ChartOption {
  const days = lastDays(daily)
  return {
    tooltip: { trigger: 'axis' },
    legend: { bottom: 0 },
    grid: { left: 8, right: 8, top: 32, bottom: LEGEND_GRID_BOTTOM },
    xAxis: { type: 'category', boundaryGap: false, data: days.map((day) => shortDate(day.date)) },
    yAxis: [
      { type: 'value', name: '体积', ...byteAxis(known(days, (day) => day.seedingSize)) },
      { type: 'value', name: '记录', minInterval: 1, splitLine: { show: false }, splitNumber: 4 },
    ],
    series: [
      {
        type: 'line',
        name: '做种体积',
        smooth: true,
        showSymbol: false,
        areaStyle: { opacity: 0.15 },
        color: palette.primary,
        tooltip: { valueFormatter: (value) => formatBytes(Number(value)) },
        data: days.map((day) => day.figures?.seedingSize ?? null),
      },
      {
        type: 'line',
        name: '做种记录',
        yAxisIndex: 1,
        smooth: true,
        showSymbol: false,
        color: palette.blue,
        tooltip: { valueFormatter: (value) => formatCount(Number(value)) },
        data: days.map((day) => day.figures?.seedingCount ?? null),
      },
    ],
  }
}

/** This month's wage rank, top 10: rank 1 at the top. */
export function topWagesOption(topWages: readonly WageRankEntry[], palette: Palette): ChartOption {
  const top = [...topWages]
    .sort((a, b) => a.rank - b.rank)
    .slice(0, 10)
    .reverse()
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (value) => `${formatAmount(Number(value))} 魔力` },
    grid: { left: 8, right: 72, top: 8, bottom: 8 },
    xAxis: { type: 'value' },
    yAxis: { type: 'category', data: top.map((entry) => `${entry.rank}. ${entry.username}`) },
    series: [
      {
        type: 'bar',
        name: '预计工资',
        barMaxWidth: 18,
        color: palette.gold,
        label: { show: true, position: 'right', formatter: ({ value }) => formatAmount(Number(value)) },
        data: top.map((entry) => entry.amount),
      },
    ],
  }
}

/** The member's own seeding volume and uploaded bytes over the last 30 days. */
export function myDailyOption(daily: UserSeedingStats['daily'], palette: Palette): ChartOption {
  const days = lastDays(daily)
  return {
    tooltip: { trigger: 'axis', valueFormatter: (value) => formatBytes(Number(value)) },
    legend: { bottom: 0 },
    grid: { left: 8, right: 8, top: 32, bottom: LEGEND_GRID_BOTTOM },
    xAxis: { type: 'category', boundaryGap: false, data: days.map((day) => shortDate(day.date)) },
    // Uploaded bytes are far smaller than the volume kept: their own axis keeps the line readable.
    yAxis: [
      { type: 'value', name: '做种体积', ...byteAxis(known(days, (day) => day.seedingSize)) },
      { type: 'value', name: '上传量', splitLine: { show: false }, ...byteAxis(known(days, (day) => day.uploaded)) },
    ],
    series: [
      {
        type: 'line',
        name: '做种体积',
        smooth: true,
        showSymbol: false,
        areaStyle: { opacity: 0.15 },
        color: palette.primary,
        data: days.map((day) => day.figures?.seedingSize ?? null),
      },
      {
        type: 'line',
        name: '上传量',
        yAxisIndex: 1,
        smooth: true,
        showSymbol: false,
        color: palette.purple,
        data: days.map((day) => day.figures?.uploaded ?? null),
      },
    ],
  }
}
