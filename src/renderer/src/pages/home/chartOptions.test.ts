import { describe, expect, it } from 'vitest'
import type { WageRankEntry } from '@shared/entities'
import { byteAxisRange, binaryStep } from './byteAxis'
import { axisBytes, completionOption, myDailyOption, statusOption, teamDailyOption, topWagesOption, type Palette } from './chartOptions'

const palette: Palette = {
  default: 'grey',
  primary: 'primary',
  green: 'green',
  lime: 'lime',
  blue: 'blue',
  purple: 'purple',
  orange: 'orange',
  gold: 'gold',
  red: 'red',
}

type Bar = { value: number; itemStyle: { color: string } }
const firstSeries = (option: ReturnType<typeof statusOption>) => (Array.isArray(option.series) ? option.series[0] : option.series)!

describe('dashboard chart options', () => {
  it('colours each status bar like its tag, top to bottom in wire order', () => {
    const option = statusOption({ 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8 }, palette)
    const labels = (option.yAxis as { data: string[] }).data
    const bars = firstSeries(option).data as Bar[]
    // echarts puts category 0 at the bottom: the list is reversed.
    expect(labels).toEqual(['下载未完成', '已停止', '发布者', '无工资', '做种中（未认领）', '做种中', '下载中', '未下载'])
    const colourOf = (label: string) => bars[labels.indexOf(label)]!.itemStyle.color
    const valueOf = (label: string) => bars[labels.indexOf(label)]!.value
    expect(colourOf('做种中')).toBe('green')
    expect(colourOf('做种中（未认领）')).toBe('lime')
    expect(colourOf('下载中')).toBe('blue')
    expect(colourOf('发布者')).toBe('purple')
    expect(colourOf('已停止')).toBe('orange')
    expect(colourOf('下载未完成')).toBe('gold')
    expect(colourOf('未下载')).toBe('grey')
    expect(colourOf('无工资')).toBe('red')
    expect(valueOf('已停止')).toBe(7)
  })

  it('labels the completion donut in Chinese', () => {
    const data = firstSeries(completionOption({ 1: 10, 2: 20, 3: 30, 4: 40 }, palette)).data as { name: string; value: number }[]
    expect(data.map(({ name, value }) => `${name}=${value}`)).toEqual([
      '官种已完成=10',
      '官种未完成=20',
      '非官种已完成=30',
      '非官种未完成=40',
    ])
  })

  it('puts wage rank 1 at the top and keeps ten', () => {
    const entries: WageRankEntry[] = Array.from({ length: 12 }, (_, index) => ({
      rank: 12 - index,
      userId: index + 1,
      username: `u${12 - index}`,
      period: '2025-03',
      amount: 1000 - (12 - index),
      torrentCount: 1,
      totalSize: 1,
    }))
    const labels = (topWagesOption(entries, palette).yAxis as { data: string[] }).data
    expect(labels).toHaveLength(10)
    expect(labels.at(-1)).toBe('1. u1')
    expect(labels[0]).toBe('10. u10')
  })

  it('writes byte axis labels with one decimal, dropping .0', () => {
    expect(axisBytes(0)).toBe('0 B')
    expect(axisBytes(1.25 * 1024 ** 5)).toBe('1.3 PiB')
    expect(axisBytes(1024 ** 5)).toBe('1 PiB')
    expect(axisBytes(819 * 1024 ** 4)).toBe('819 TiB')
  })

  it('steps byte axes by round binary amounts: 0 / 200 / 400 / 600 / 800 TiB, not 272.8 / 545.7 / 818.5', () => {
    const TiB = 1024 ** 4
    const ticks = (range: { min?: number; max?: number; interval?: number }) => {
      const out: string[] = []
      for (let value = range.min!; value <= range.max!; value += range.interval!) out.push(axisBytes(value))
      return out
    }
    // The dashboard's 30 days of team volume, topping out at 818.5 TiB.
    const daily = Array.from({ length: 30 }, (_, i) => ({
      date: `2026-11-${String(i + 1).padStart(2, '0')}`,
      seedingCount: 1000 + i,
      seedingSize: (700 + i * 4.1) * TiB,
    }))
    const team = teamDailyOption(daily, palette).yAxis as { min?: number; max?: number; interval?: number }[]
    expect(ticks(team[0]!)).toEqual(['0 B', '200 TiB', '400 TiB', '600 TiB', '800 TiB', '1000 TiB'])
    const mine = myDailyOption(
      daily.map((day) => ({ ...day, uploaded: 37 * 1024 ** 3 })),
      palette,
    ).yAxis as { min?: number; max?: number; interval?: number }[]
    expect(ticks(mine[1]!)).toEqual(['0 B', '10 GiB', '20 GiB', '30 GiB', '40 GiB'])
    expect(binaryStep(3 * 1024 ** 5)).toBe(1024 ** 5)
    expect(binaryStep(900)).toBe(200)
    expect(byteAxisRange([0, 0])).toEqual({})
  })

  it('labels every tick of a byte axis in the unit of its step: 1500 TiB, not "1.5 PiB" after 1000 TiB', () => {
    const TiB = 1024 ** 4
    type Axis = { min: number; max: number; interval: number; axisLabel: { formatter: (value: number) => string } }
    const labels = (axis: Axis) => {
      const out: string[] = []
      for (let value = axis.min; value <= axis.max; value += axis.interval) out.push(axis.axisLabel.formatter(value))
      return out
    }
    // The demo team's volume: 1.17 PiB, stepped by 500 TiB.
    const daily = Array.from({ length: 30 }, (_, i) => ({
      date: `2026-11-${String(i + 1).padStart(2, '0')}`,
      seedingCount: 1000,
      seedingSize: (1100 + i * 3) * TiB,
    }))
    const team = teamDailyOption(daily, palette).yAxis as Axis[]
    expect(labels(team[0]!)).toEqual(['0 B', '500 TiB', '1000 TiB', '1500 TiB'])
    const mine = myDailyOption(
      daily.map((day) => ({ ...day, uploaded: 37 * 1024 ** 3 })),
      palette,
    ).yAxis as Axis[]
    expect(labels(mine[1]!)).toEqual(['0 B', '10 GiB', '20 GiB', '30 GiB', '40 GiB'])
    // Nothing seeded: the axis keeps the plain byte labels.
    const empty = teamDailyOption(
      daily.map((day) => ({ ...day, seedingSize: 0 })),
      palette,
    ).yAxis as Partial<Axis>[]
    expect(empty[0]!.axisLabel!.formatter(0)).toBe('0 B')
  })
})
