import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { Button, Form, Input } from 'antd'
import { RequestError } from '@renderer/services/request'
import { renderWithProviders } from '@renderer/test/render'
import FormModal from '.'

/** A page with a search box of its own and a button that opens the dialog. */
function Page({ onSubmit }: { onSubmit(values: { name: string; note?: string }): Promise<unknown> }) {
  const [open, setOpen] = useState(false)
  return (
    <>
      <input aria-label="页面上的搜索" defaultValue="" />
      <Button onClick={() => setOpen(true)}>打开</Button>
      <span data-testid="dialog-state">{open ? '打开着' : '已关闭'}</span>
      <FormModal<{ name: string; note?: string }>
        open={open}
        title="新建"
        okText="创建"
        name="probe"
        onClose={() => setOpen(false)}
        onSubmit={onSubmit}
      >
        <Form.Item name="name" label="名称" rules={[{ required: true }]}>
          <Input />
        </Form.Item>
        <Form.Item name="note" label="备注">
          <Input />
        </Form.Item>
      </FormModal>
    </>
  )
}

/** A promise the test settles. */
function deferred() {
  let settle!: { resolve(): void; reject(error: unknown): void }
  const promise = new Promise<void>((resolve, reject) => (settle = { resolve, reject }))
  return { promise, ...settle }
}

async function open(onSubmit: (values: { name: string; note?: string }) => Promise<unknown>) {
  renderWithProviders(<Page onSubmit={onSubmit} />)
  fireEvent.click(screen.getByRole('button', { name: '打开' }))
  const dialog = (await screen.findByText('新建', { selector: '.ant-modal-title' })).closest('[role="dialog"]') as HTMLElement
  const field = (label: string) => within(dialog).getByLabelText(label) as HTMLInputElement
  return { dialog, field }
}

describe('FormModal', () => {
  it('puts the focus in the first field when it opens', async () => {
    const { field } = await open(async () => undefined)
    await waitFor(() => expect(document.activeElement).toBe(field('名称')))
  })

  it('sends one request for a fast double Enter, and none while the first is still running', async () => {
    const pending = deferred()
    const onSubmit = vi.fn(() => pending.promise)
    const { dialog, field } = await open(onSubmit)
    fireEvent.change(field('名称'), { target: { value: '甲' } })
    const form = field('名称').closest('form')!
    fireEvent.submit(form) // Enter in a field (implicit submission)
    fireEvent.submit(form) // …and again before the first has been validated
    await waitFor(() => expect(within(dialog).getByRole('button', { name: /创\s*建/ }).className).toMatch(/ant-btn-loading/))
    fireEvent.submit(form) // Enter while the save runs
    fireEvent.click(within(dialog).getByRole('button', { name: /创\s*建/ }))
    pending.resolve()
    await waitFor(() => expect(screen.getByTestId('dialog-state').textContent).toBe('已关闭'))
    expect(onSubmit).toHaveBeenCalledTimes(1)
  })

  it('keeps what was typed after a failed save and shows why; Escape then closes it', async () => {
    const { dialog, field } = await open(async () => {
      throw new RequestError(409, '名称已存在')
    })
    fireEvent.change(screen.getByLabelText('页面上的搜索'), { target: { value: '页面上的字' } })
    fireEvent.change(field('名称'), { target: { value: '甲' } })
    fireEvent.change(field('备注'), { target: { value: '乙' } })
    fireEvent.submit(field('名称').closest('form')!)
    expect(await within(dialog).findByText('名称已存在')).toBeTruthy()
    expect(field('名称').value).toBe('甲')
    expect(field('备注').value).toBe('乙')
    fireEvent.keyDown(dialog, { key: 'Escape', code: 'Escape', keyCode: 27 })
    await waitFor(() => expect(screen.getByTestId('dialog-state').textContent).toBe('已关闭'))
    expect((screen.getByLabelText('页面上的搜索') as HTMLInputElement).value).toBe('页面上的字')
  })

  it('drops the server message once the field it names is changed, not when another field is', async () => {
    const { dialog, field } = await open(async () => {
      throw new RequestError(409, '名称已存在')
    })
    fireEvent.change(field('名称'), { target: { value: '甲' } })
    fireEvent.submit(field('名称').closest('form')!)
    expect(await within(dialog).findByText('名称已存在')).toBeTruthy()
    fireEvent.change(field('备注'), { target: { value: '乙' } })
    expect(within(dialog).getByTestId('form-error')).toBeTruthy()
    fireEvent.change(field('名称'), { target: { value: '丙' } })
    await waitFor(() => expect(within(dialog).queryByTestId('form-error')).toBeNull())
  })
})
