import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, render, screen, waitFor } from '@testing-library/react'
import { useSettingsStore } from '@renderer/stores/settings'
import { echarts } from './echarts'
import Chart, { type ChartOption } from '.'

const barOption = (label: string): ChartOption => ({
  xAxis: { type: 'category', data: [label] },
  yAxis: { type: 'value' },
  series: [{ type: 'bar', data: [3] }],
})

/** happy-dom never reports a size change; this stand-in lets the test fire one. */
class FakeResizeObserver {
  static instances: FakeResizeObserver[] = []
  observed: Element[] = []
  disconnected = false
  constructor(readonly callback: ResizeObserverCallback) {
    FakeResizeObserver.instances.push(this)
  }
  observe(target: Element) {
    this.observed.push(target)
  }
  unobserve() {}
  disconnect() {
    this.disconnected = true
  }
  fire() {
    this.callback([], this as unknown as ResizeObserver)
  }
}

afterEach(() => {
  vi.unstubAllGlobals()
  FakeResizeObserver.instances = []
})

const instanceIn = (box: HTMLElement) => echarts.getInstanceByDom(box)!

describe('Chart', () => {
  it('draws the option (SVG) and follows a new option', async () => {
    const view = render(<Chart option={barOption('做种中')} ariaLabel="状态分布" />)
    const box = screen.getByRole('img', { name: '状态分布' })
    expect(box.querySelector('svg')).toBeTruthy()
    expect(box.textContent).toContain('做种中')
    view.rerender(<Chart option={barOption('已停止')} ariaLabel="状态分布" />)
    // The new marks come in on echarts' next animation frame.
    await waitFor(() => expect(box.textContent).toContain('已停止'))
    expect(box.textContent).not.toContain('做种中')
  })

  it('disposes the chart and stops watching its size on unmount', () => {
    vi.stubGlobal('ResizeObserver', FakeResizeObserver)
    const view = render(<Chart option={barOption('做种中')} />)
    const box = screen.getByTestId('chart')
    const chart = instanceIn(box)
    const observer = FakeResizeObserver.instances[0]!
    expect(observer.observed).toEqual([box])

    const resize = vi.spyOn(chart, 'resize')
    observer.fire()
    expect(resize).toHaveBeenCalled()

    view.unmount()
    expect(chart.isDisposed()).toBe(true)
    expect(observer.disconnected).toBe(true)
  })

  it("re-creates the chart in echarts' dark theme when the console is dark, light otherwise", () => {
    useSettingsStore.setState({ navTheme: 'realDark' })
    render(<Chart option={barOption('做种中')} />)
    const box = screen.getByTestId('chart')
    const darkChart = instanceIn(box)
    // echarts' dark theme draws axis labels light; its default theme draws them dark.
    const labelColour = () => box.querySelector('text')!.getAttribute('fill')
    const darkLabel = labelColour()

    act(() => useSettingsStore.setState({ navTheme: 'light' }))
    const lightChart = instanceIn(box)
    expect(darkChart.isDisposed()).toBe(true)
    expect(lightChart).not.toBe(darkChart)
    expect(box.textContent).toContain('做种中')
    expect(labelColour()).not.toBe(darkLabel)
  })
})
