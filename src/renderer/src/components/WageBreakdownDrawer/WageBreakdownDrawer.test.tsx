import { beforeEach, describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { installFakeApi, ok } from '@renderer/test/fakeApi'
import { renderWithProviders } from '@renderer/test/render'
import { wageDetail, wageItem } from '@renderer/pages/salary/fixtures'
import WageBreakdownDrawer from '.'

// One member's month as the site counted it: 1,562 torrents summed to 447,405 hours (286.43 h each on average).
const detail = wageDetail({
  seedHours: 447_405,
  torrentCount: 1562,
  avgSeedHours: 286.43,
  partial: true,
  items: [
    wageItem({
      torrentId: 1,
      torrentName: 'Alpha.2019.1080p',
      size: 40 * 1024 ** 3,
      seeders: 1024,
      seedHours: 700,
      value: 210.25,
      keeperRank: 1,
    }),
    wageItem({
      torrentId: 2,
      torrentName: 'Bravo.S01.720p',
      size: 2 * 1024 ** 3,
      seedHours: 12,
      value: 0,
      keeperRank: 0,
      qualified: false,
      reason: '体积不足（2 GiB < 5 GiB）',
    }),
    wageItem({
      torrentId: 3,
      torrentName: 'Charlie.2021.2160p',
      size: 90 * 1024 ** 3,
      seedHours: 310,
      value: 55.5,
      keeperRank: 2,
      partial: true,
    }),
  ],
})

beforeEach(() => {
  installFakeApi({ handlers: { 'wages.detail': ok(detail) } })
})

const itemNames = () =>
  within(screen.getByTestId('wage-items'))
    .getAllByRole('row')
    .slice(1)
    .filter((row) => row.classList.contains('ant-table-row'))
    .map((row) => row.querySelector('td')!.textContent!.replace('部分月份', ''))

async function openDrawer() {
  renderWithProviders(<WageBreakdownDrawer source={{ kind: 'record', id: 101 }} onClose={() => {}} />)
  await screen.findByTestId('wage-items', undefined, { timeout: 8000 })
}

describe('工资明细 drawer', { timeout: 20_000 }, () => {
  it('leads with the average seed hours the formula uses and gives the total in days and hours', async () => {
    await openDrawer()
    const summary = screen.getByTestId('wage-breakdown-summary')
    expect(summary.textContent).toContain('平均做种时长286.4 小时')
    expect(summary.textContent).toContain('累计做种时长18,641 天 21 小时')
    expect(summary.textContent).not.toContain('447,405')
    // The record counted from a first observation says so.
    expect(within(summary).getByText('部分月份')).toBeTruthy()
  })

  it('writes counts with thousands separators, like every other count of the console', async () => {
    await openDrawer()
    expect(screen.getByTestId('wage-breakdown-summary').textContent).toContain('达标种子数1,562')
    const seeders = within(screen.getByTestId('wage-items'))
      .getAllByRole('row')
      .filter((row) => row.classList.contains('ant-table-row'))
      .map((row) => row.querySelectorAll('td')[2]!.textContent)
    expect(seeders[0]).toBe('1,024')
  })

  it('writes 做种时长 with one decimal on every row, in figures of one width, so the decimals line up', async () => {
    await openDrawer()
    const cells = within(screen.getByTestId('wage-items'))
      .getAllByRole('row')
      .filter((row) => row.classList.contains('ant-table-row'))
      .map((row) => row.querySelectorAll('td')[3] as HTMLElement)
    expect(cells.map((cell) => cell.textContent)).toEqual(['700.0 小时', '12.0 小时', '310.0 小时'])
    for (const cell of cells) expect([cell.style.textAlign, cell.style.fontVariantNumeric]).toEqual(['right', 'tabular-nums'])
  })

  it('shows - for the keeper rank of a torrent that did not qualify, and flags 部分月份 per torrent', async () => {
    await openDrawer()
    const rows = within(screen.getByTestId('wage-items'))
      .getAllByRole('row')
      .filter((row) => row.classList.contains('ant-table-row'))
    const rankCell = (row: HTMLElement) => row.querySelectorAll('td')[5]!.textContent
    expect(rows.map(rankCell)).toEqual(['1', '-', '2'])
    expect(within(rows[2]!).getByText('部分月份')).toBeTruthy()
    expect(within(rows[0]!).queryByText('部分月份')).toBeNull()
  })

  it('sorts by value, seed hours and size', async () => {
    await openDrawer()
    expect(itemNames()).toEqual(['Alpha.2019.1080p', 'Bravo.S01.720p', 'Charlie.2021.2160p'])
    const header = (name: string) => within(screen.getByTestId('wage-items')).getByRole('columnheader', { name: new RegExp(name) })
    fireEvent.click(header('价值'))
    await waitFor(() => expect(itemNames()).toEqual(['Bravo.S01.720p', 'Charlie.2021.2160p', 'Alpha.2019.1080p']))
    fireEvent.click(header('价值'))
    await waitFor(() => expect(itemNames()).toEqual(['Alpha.2019.1080p', 'Charlie.2021.2160p', 'Bravo.S01.720p']))
    fireEvent.click(header('做种时长'))
    await waitFor(() => expect(itemNames()).toEqual(['Bravo.S01.720p', 'Charlie.2021.2160p', 'Alpha.2019.1080p']))
    fireEvent.click(header('体积'))
    await waitFor(() => expect(itemNames()).toEqual(['Bravo.S01.720p', 'Alpha.2019.1080p', 'Charlie.2021.2160p']))
  })

  it('filters by 达标/未达标 and searches by name', async () => {
    await openDrawer()
    const search = screen.getByLabelText('搜索种子名称')
    fireEvent.change(search, { target: { value: 'charlie' } })
    await waitFor(() => expect(itemNames()).toEqual(['Charlie.2021.2160p']))
    fireEvent.change(search, { target: { value: '' } })
    await waitFor(() => expect(itemNames()).toHaveLength(3))

    const table = screen.getByTestId('wage-items')
    fireEvent.click(table.querySelector('.ant-table-filter-trigger')!)
    fireEvent.click(
      await screen.findByText('未达标', { selector: '.ant-dropdown-menu-title-content span, .ant-dropdown-menu-title-content' }),
    )
    fireEvent.click(screen.getByRole('button', { name: /确\s*定|OK/ }))
    await waitFor(() => expect(itemNames()).toEqual(['Bravo.S01.720p']))
  })
})
