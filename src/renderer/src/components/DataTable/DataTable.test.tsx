import { beforeEach, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { installFakeApi, ok, type FakeApi } from '@renderer/test/fakeApi'
import { renderWithProviders } from '@renderer/test/render'
import { pagedRequest, type TableData } from '@renderer/services/request'
import { useUserStore } from '@renderer/stores/user'
import { searchLimits } from '@renderer/utils/formLimits'
import { storageKey } from './columnSettings'
import DataTable, { NO_MATCH, type DataTableActions, type DataTableColumn } from '.'

interface Row {
  id: number
  name: string
  size: number
  kind: number
}

const rows = (count: number, from = 1): Row[] =>
  Array.from({ length: count }, (_, index) => ({ id: from + index, name: `种子 ${from + index}`, size: (from + index) * 1024, kind: 1 }))

const columns: DataTableColumn<Row>[] = [
  { title: '名称', dataIndex: 'name', search: { type: 'text', name: 'torrentName', maxLength: searchLimits.recordTorrentName } },
  { title: '体积', dataIndex: 'size' },
  {
    title: '类型',
    dataIndex: 'kind',
    search: {
      type: 'select',
      name: 'seedType',
      label: '种子类型',
      options: [
        { label: '官种', value: 1 },
        { label: '非官种', value: 2 },
      ],
    },
  },
  { title: '备注', dataIndex: 'note', hiddenByDefault: true },
]

let api: FakeApi

/** A table over the real `pagedRequest`, so the test sees the payload the main process gets. */
function renderTable(props: Partial<Parameters<typeof DataTable<Row>>[0]> = {}) {
  return renderWithProviders(
    <DataTable<Row>
      tableKey="test"
      title="测试列表"
      rowKey="id"
      columns={columns}
      sortableFields={['size']}
      request={(params, sort) => pagedRequest('user.pageSeed', params, sort) as unknown as Promise<TableData<Row>>}
      {...props}
    />,
  )
}

/** antd gives selects a fixed input id under test, so labels cannot find them; go by the form item. */
function selectOf(label: string): HTMLElement {
  return screen.getByText(label, { selector: 'label' }).closest('.ant-form-item')!.querySelector('.ant-select')!
}

const lastInput = () => api.call.mock.calls.at(-1)?.[1] as Record<string, unknown>
const headers = () => screen.getAllByRole('columnheader').map((cell) => cell.textContent)

beforeEach(() => {
  window.localStorage.clear()
  api = installFakeApi()
  api.handle('user.pageSeed', (input) => {
    const { page, pageSize } = input as { page: number; pageSize: number }
    return ok({ list: rows(Math.min(pageSize, 45 - (page - 1) * pageSize), (page - 1) * pageSize + 1), total: 45 })
  })
})

describe('DataTable', () => {
  it('shows a skeleton, then the first page with the total', async () => {
    renderTable()
    expect(screen.getByTestId('data-table-skeleton')).toBeTruthy()
    expect(await screen.findByText('种子 1')).toBeTruthy()
    expect(screen.queryByTestId('data-table-skeleton')).toBeNull()
    expect(screen.getByText('共 45 条')).toBeTruthy()
    expect(screen.getByText('测试列表')).toBeTruthy()
    expect(lastInput()).toEqual({ page: 1, pageSize: 20 })
  })

  it('sends the page and the sort as orderBy; a new sort starts at page 1', async () => {
    renderTable()
    await screen.findByText('种子 1')
    fireEvent.click(screen.getByTitle('2'))
    expect(await screen.findByText('种子 21')).toBeTruthy()
    expect(lastInput()).toEqual({ page: 2, pageSize: 20 })

    const sizeHeader = screen.getByRole('columnheader', { name: /体积/ })
    fireEvent.click(sizeHeader)
    await waitFor(() => expect(lastInput()).toEqual({ page: 1, pageSize: 20, orderBy: 'size ASC' }))
    fireEvent.click(sizeHeader)
    await waitFor(() => expect(lastInput()).toEqual({ page: 1, pageSize: 20, orderBy: 'size DESC' }))
    // Only whitelisted columns are sortable.
    expect(screen.getByRole('columnheader', { name: /名称/ }).className).not.toContain('ant-table-column-has-sorters')
  })

  it('changes the page size', async () => {
    const { container } = renderTable()
    await screen.findByText('种子 1')
    fireEvent.mouseDown(container.querySelector('.ant-pagination-options .ant-select')!)
    fireEvent.click(await screen.findByTitle('50 条/页'))
    await waitFor(() => expect(lastInput()).toEqual({ page: 1, pageSize: 50 }))
  })

  it('searches with the form (a submit, as Enter in a text box does), and 重置 clears the filters', async () => {
    renderTable()
    await screen.findByText('种子 1')
    const search = within(screen.getByTestId('data-table-search'))
    const nameBox = search.getByLabelText('名称')
    fireEvent.change(nameBox, { target: { value: '  蓝光 ' } })
    fireEvent.submit(nameBox.closest('form')!)
    await waitFor(() => expect(lastInput()).toEqual({ page: 1, pageSize: 20, torrentName: '蓝光' }))

    fireEvent.mouseDown(selectOf('种子类型'))
    fireEvent.click(await screen.findByTitle('非官种'))
    fireEvent.click(search.getByRole('button', { name: '查询' }))
    await waitFor(() => expect(lastInput()).toEqual({ page: 1, pageSize: 20, torrentName: '蓝光', seedType: 2 }))

    fireEvent.click(search.getByRole('button', { name: '重置' }))
    await waitFor(() => expect(lastInput()).toEqual({ page: 1, pageSize: 20 }))
    expect((search.getByLabelText('名称') as HTMLInputElement).value).toBe('')
  })

  it('查询 with the search already shown reads again (rows may have come since), not nothing', async () => {
    renderTable()
    await screen.findByText('种子 1')
    const search = within(screen.getByTestId('data-table-search'))
    fireEvent.change(search.getByLabelText('名称'), { target: { value: '蓝光' } })
    fireEvent.click(search.getByRole('button', { name: '查询' }))
    await waitFor(() => expect(lastInput()).toEqual({ page: 1, pageSize: 20, torrentName: '蓝光' }))
    const asked = api.call.mock.calls.length
    fireEvent.click(search.getByRole('button', { name: '查询' }))
    await waitFor(() => expect(api.call.mock.calls.length).toBe(asked + 1))
    expect(lastInput()).toEqual({ page: 1, pageSize: 20, torrentName: '蓝光' })
  })

  it("limits a text field to the server's length: a long paste is cut, not refused with 加载失败", async () => {
    renderTable()
    await screen.findByText('种子 1')
    const nameBox = within(screen.getByTestId('data-table-search')).getByLabelText('名称') as HTMLInputElement
    expect(searchLimits.recordTorrentName).toBe(200)
    expect(nameBox.maxLength).toBe(200)
  })

  it('checks a whole-number field before sending: Chinese message, nothing sent; full-width digits count', async () => {
    const withTorrentId: DataTableColumn<Row>[] = [
      ...columns,
      { title: '编号', dataIndex: 'id', search: { type: 'integer', name: 'torrentId', label: '种子编号', min: 1, max: 2_147_483_647 } },
    ]
    renderTable({ columns: withTorrentId })
    await screen.findByText('种子 1')
    const search = within(screen.getByTestId('data-table-search'))
    const idBox = search.getByLabelText('种子编号')
    const calls = api.call.mock.calls.length
    for (const typed of ['abc', '99999999999999999999', '0', '12.5']) {
      fireEvent.change(idBox, { target: { value: typed } })
      fireEvent.submit(idBox.closest('form')!) // Enter
      expect(await search.findByText('种子编号应为 1 到 2147483647 之间的整数')).toBeTruthy()
    }
    expect(api.call.mock.calls.length).toBe(calls)

    fireEvent.change(idBox, { target: { value: ' １２３ ' } })
    fireEvent.click(search.getByRole('button', { name: '查询' }))
    await waitFor(() => expect(lastInput()).toEqual({ page: 1, pageSize: 20, torrentId: 123 }))
    await waitFor(() => expect(search.queryByText('种子编号应为 1 到 2147483647 之间的整数')).toBeNull())

    // 重置 clears a refused value and its message too.
    fireEvent.change(idBox, { target: { value: 'x' } })
    fireEvent.submit(idBox.closest('form')!)
    expect(await search.findByText('种子编号应为 1 到 2147483647 之间的整数')).toBeTruthy()
    fireEvent.click(search.getByRole('button', { name: '重置' }))
    await waitFor(() => expect(lastInput()).toEqual({ page: 1, pageSize: 20 }))
    await waitFor(() => expect(search.queryByText('种子编号应为 1 到 2147483647 之间的整数')).toBeNull())
  })

  it('starts from the initial search and sends fixed params with every page', async () => {
    renderTable({ initialSearch: { seedType: 1 }, params: { userId: 7 } })
    await screen.findByText('种子 1')
    expect(lastInput()).toEqual({ page: 1, pageSize: 20, seedType: 1, userId: 7 })
    expect(within(screen.getByTestId('data-table-search')).getByText('官种')).toBeTruthy()
  })

  it('comes back to the page, sort, page size and search it was left at (another screen and back)', async () => {
    const view = renderTable()
    await screen.findByText('种子 1')
    const search = within(screen.getByTestId('data-table-search'))
    fireEvent.change(search.getByLabelText('名称'), { target: { value: '蓝光' } })
    fireEvent.click(search.getByRole('button', { name: '查询' }))
    await waitFor(() => expect(lastInput()).toEqual({ page: 1, pageSize: 20, torrentName: '蓝光' }))
    fireEvent.click(screen.getByRole('columnheader', { name: /体积/ }))
    await waitFor(() => expect(lastInput()).toEqual({ page: 1, pageSize: 20, torrentName: '蓝光', orderBy: 'size ASC' }))
    fireEvent.click(await screen.findByTitle('2'))
    await waitFor(() => expect(lastInput()).toEqual({ page: 2, pageSize: 20, torrentName: '蓝光', orderBy: 'size ASC' }))
    view.unmount()

    renderTable()
    expect(await screen.findByText('种子 21')).toBeTruthy()
    expect(lastInput()).toEqual({ page: 2, pageSize: 20, torrentName: '蓝光', orderBy: 'size ASC' })
    expect((within(screen.getByTestId('data-table-search')).getByLabelText('名称') as HTMLInputElement).value).toBe('蓝光')
    expect(screen.getByTitle('2').className).toContain('ant-pagination-item-active')
    expect(screen.getByRole('columnheader', { name: /体积/ }).getAttribute('aria-sort')).toBe('ascending')
  })

  it('starts afresh for other fixed params, for a search given by the URL, and after the session ended', async () => {
    const leaveOnPage2 = async (props: Partial<Parameters<typeof DataTable<Row>>[0]> = {}) => {
      const view = renderTable(props)
      fireEvent.click(await screen.findByTitle('2'))
      await screen.findByText('种子 21')
      view.unmount()
    }
    await leaveOnPage2({ params: { userId: 7 } })
    renderTable({ params: { userId: 8 } })
    await screen.findByText('种子 1')
    expect(lastInput()).toEqual({ page: 1, pageSize: 20, userId: 8 })
    cleanup()

    await leaveOnPage2()
    renderTable({ initialSearch: { seedType: 1 } })
    await screen.findByText('种子 1')
    expect(lastInput()).toEqual({ page: 1, pageSize: 20, seedType: 1 })
    cleanup()

    await leaveOnPage2()
    act(() => useUserStore.getState().endSession())
    renderTable()
    await screen.findByText('种子 1')
    expect(lastInput()).toEqual({ page: 1, pageSize: 20 })
  })

  it('writes the total with thousands separators, as every other count of the console', async () => {
    api.handle('user.pageSeed', ok({ list: rows(20), total: 12345 }))
    renderTable()
    expect(await screen.findByText('共 12,345 条')).toBeTruthy()
  })

  it('hides a column from the settings and remembers it per table key', async () => {
    const view = renderTable()
    await screen.findByText('种子 1')
    expect(headers()).toEqual(['名称', '体积', '类型'])
    fireEvent.click(screen.getByRole('button', { name: '列设置' }))
    const settings = within(await screen.findByTestId('column-settings'))
    fireEvent.click(settings.getByLabelText('体积'))
    await waitFor(() => expect(headers()).toEqual(['名称', '类型']))
    fireEvent.click(settings.getByLabelText('备注'))
    await waitFor(() => expect(headers()).toEqual(['名称', '类型', '备注']))
    expect(JSON.parse(window.localStorage.getItem(storageKey('test'))!)).toEqual(['size'])

    view.unmount()
    renderTable()
    await screen.findByText('种子 1')
    expect(headers()).toEqual(['名称', '类型', '备注'])
    // Another table keeps its own defaults.
    view.unmount()
  })

  it('keeps at least one column visible, and 重置 returns to the defaults', async () => {
    window.localStorage.setItem(storageKey('test'), JSON.stringify(['size', 'kind', 'note']))
    renderTable()
    await screen.findByText('种子 1')
    expect(headers()).toEqual(['名称'])
    fireEvent.click(screen.getByRole('button', { name: '列设置' }))
    const settings = within(await screen.findByTestId('column-settings'))
    expect((settings.getByLabelText('名称') as HTMLInputElement).disabled).toBe(true)
    fireEvent.click(screen.getByText('重置', { selector: 'a' }))
    await waitFor(() => expect(headers()).toEqual(['名称', '体积', '类型']))
    expect(window.localStorage.getItem(storageKey('test'))).toBeNull()
  })

  it('closes the column settings on Escape, wherever the focus is (a checkbox in it, or the page)', async () => {
    renderTable()
    await screen.findByText('种子 1')
    const button = screen.getByRole('button', { name: '列设置' })
    const popover = async () => (await screen.findByTestId('column-settings')).closest('.ant-popover') as HTMLElement
    const hidden = (element: HTMLElement) => element.classList.contains('ant-popover-hidden')

    fireEvent.click(button)
    const open = await popover()
    expect(hidden(open)).toBe(false)
    const checkbox = within(open).getByLabelText('体积')
    checkbox.focus()
    fireEvent.keyDown(checkbox, { key: 'Escape', code: 'Escape', keyCode: 27 })
    await waitFor(() => expect(hidden(open)).toBe(true))
    // The focus goes back to the button, so the keyboard user is where they were.
    expect(document.activeElement).toBe(button)

    // Pointed at (its tooltip shows) and clicked: the focus stays on the button, the tooltip was the top popup.
    fireEvent.mouseEnter(button)
    await act(() => new Promise((resolve) => setTimeout(resolve, 300)))
    fireEvent.click(button)
    await waitFor(() => expect(hidden(open)).toBe(false))
    fireEvent.keyDown(button, { key: 'Escape', code: 'Escape', keyCode: 27 })
    await waitFor(() => expect(hidden(open)).toBe(true))
  })

  it('shows the empty state, and a failure hint when the call failed', async () => {
    api.handle('user.pageSeed', ok({ list: [], total: 0 }))
    renderTable()
    expect(await screen.findByText('暂无数据', { selector: '.ant-empty-description' })).toBeTruthy()
    expect(screen.queryByText(/共 \d+ 条/)).toBeNull() // antd leaves out the pager when there is nothing to page

    const failing = vi.fn(async () => ({ data: [], total: 0, success: false }))
    renderTable({ tableKey: 'other', request: failing })
    expect(await screen.findByText('加载失败，请点击刷新重试', { selector: '.ant-empty-description' })).toBeTruthy()
  })

  it('reads a failed page again when the window comes back to the front, until it answers', async () => {
    let up = false
    const request = vi.fn(async () =>
      up ? { data: [{ id: 1, name: '种子 1', size: 1, kind: 1 }], total: 1, success: true } : { data: [], total: 0, success: false },
    )
    renderTable({ tableKey: 'flaky', request })
    await screen.findByText('加载失败，请点击刷新重试', { selector: '.ant-empty-description' })
    up = true
    fireEvent.focus(window)
    expect(await screen.findByText('种子 1')).toBeTruthy()
  })

  it('says that a search matches nothing, rather than 暂无数据', async () => {
    renderTable()
    await screen.findByText('种子 1')
    api.handle('user.pageSeed', ok({ list: [], total: 0 }))
    fireEvent.mouseDown(selectOf('种子类型'))
    fireEvent.click(await screen.findByTitle('非官种'))
    fireEvent.click(within(screen.getByTestId('data-table-search')).getByRole('button', { name: /查\s*询/ }))
    expect(await screen.findByText(NO_MATCH, { selector: '.ant-empty-description' })).toBeTruthy()
    expect(screen.queryByText('暂无数据', { selector: '.ant-empty-description' })).toBeNull()
  })

  it('tells the page each total it loaded, with the params and search asked (not a failed read)', async () => {
    const onLoad = vi.fn()
    renderTable({ params: { userId: 7 }, onLoad })
    await screen.findByText('种子 1')
    await waitFor(() => expect(onLoad).toHaveBeenCalledWith({ total: 45, params: { userId: 7 }, search: {} }))
    api.handle('user.pageSeed', ok({ list: [], total: 0 }))
    fireEvent.mouseDown(selectOf('种子类型'))
    fireEvent.click(await screen.findByTitle('非官种'))
    fireEvent.click(within(screen.getByTestId('data-table-search')).getByRole('button', { name: /查\s*询/ }))
    await waitFor(() => expect(onLoad).toHaveBeenLastCalledWith({ total: 0, params: { userId: 7 }, search: { seedType: 2 } }))
    expect(onLoad).toHaveBeenCalledTimes(2)

    const failed = vi.fn()
    renderTable({ tableKey: 'other', request: async () => ({ data: [], total: 0, success: false }), onLoad: failed })
    await screen.findByText('加载失败，请点击刷新重试', { selector: '.ant-empty-description' })
    expect(failed).not.toHaveBeenCalled()
  })

  it('scrolls sideways only below the sum of the column widths when every width is known', async () => {
    const sized = columns.map((column, index) => ({ ...column, width: 100 + index * 10 }))
    const { container } = renderTable({ columns: sized })
    await screen.findByText('种子 1')
    // 名称 100 + 体积 110 + 类型 120 (备注 is hidden)
    expect((container.querySelector('.ant-table table') as HTMLTableElement).style.width).toBe('330px')
  })

  it('keeps the first column fixed left and the 操作 column fixed right', async () => {
    const withActions: DataTableColumn<Row>[] = [...columns, { title: '操作', key: 'actions', width: 120, render: () => '编辑' }]
    const { container } = renderTable({ columns: withActions })
    await screen.findByText('种子 1')
    const header = (title: string) => [...container.querySelectorAll('thead th')].find((th) => th.textContent === title)!
    expect(header('名称').className).toMatch(/ant-table-cell-fix-(start|left)/)
    expect(header('操作').className).toMatch(/ant-table-cell-fix-(end|right)/)
    expect(header('体积').className).not.toMatch(/ant-table-cell-fix/)
  })

  it('reloads the current page from the toolbar and from its actions', async () => {
    const actions: { current: DataTableActions | null } = { current: null }
    renderTable({ ref: actions })
    await screen.findByText('种子 1')
    const before = api.call.mock.calls.length
    fireEvent.click(screen.getByRole('button', { name: '刷新' }))
    await waitFor(() => expect(api.call.mock.calls.length).toBe(before + 1))
    act(() => actions.current!.reload())
    await waitFor(() => expect(api.call.mock.calls.length).toBe(before + 2))
  })

  it('ignores an older answer that arrives after a newer one', async () => {
    let resolveSlow: (answer: TableData<Row>) => void = () => undefined
    const slow = new Promise<TableData<Row>>((resolve) => (resolveSlow = resolve))
    const request = vi
      .fn()
      .mockImplementationOnce(() => slow)
      .mockImplementation(async () => ({ data: rows(1, 100), total: 1, success: true }))
    renderTable({ request })
    fireEvent.click(screen.getByRole('button', { name: '刷新' }))
    expect(await screen.findByText('种子 100')).toBeTruthy()
    await act(async () => resolveSlow({ data: rows(1, 1), total: 1, success: true }))
    expect(screen.queryByText('种子 1')).toBeNull()
    expect(screen.getByText('种子 100')).toBeTruthy()
  })
})
