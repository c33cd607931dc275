import { describe, expect, it, vi } from 'vitest'
import { fireEvent, screen, waitFor } from '@testing-library/react'
import { renderWithProviders } from '@renderer/test/render'
import NumberInput from './NumberInput'

function renderBox(props: Parameters<typeof NumberInput>[0] = {}) {
  const onChange = vi.fn()
  renderWithProviders(<NumberInput aria-label="数量" onChange={onChange} {...props} />)
  return { box: screen.getByLabelText('数量') as HTMLInputElement, onChange }
}

/** Typed and then left (Tab, a click elsewhere). */
function typeAndLeave(box: HTMLInputElement, text: string) {
  fireEvent.focus(box)
  fireEvent.change(box, { target: { value: text } })
  fireEvent.blur(box)
}

describe('NumberInput', () => {
  it('takes full-width digits (a Chinese IME in full-width mode) instead of emptying the box', async () => {
    const { box, onChange } = renderBox({ precision: 0 })
    typeAndLeave(box, '４')
    expect(onChange).toHaveBeenLastCalledWith(4)
    await waitFor(() => expect(box.value).toBe('4'))
  })

  it('reads a full-width 。 or ． as the decimal point where decimals are allowed', async () => {
    const { box, onChange } = renderBox()
    typeAndLeave(box, '１２。５')
    expect(onChange).toHaveBeenLastCalledWith(12.5)
    typeAndLeave(box, '０．７５')
    expect(onChange).toHaveBeenLastCalledWith(0.75)
    await waitFor(() => expect(box.value).toBe('0.75'))
  })

  it("passes on what was typed, out of any range, and keeps an empty box empty (ranges are the form rules' job)", async () => {
    const { box, onChange } = renderBox()
    typeAndLeave(box, '－２')
    expect(onChange).toHaveBeenLastCalledWith(-2)
    await waitFor(() => expect(box.value).toBe('-2'))
    typeAndLeave(box, '')
    expect(onChange).toHaveBeenLastCalledWith(null)
  })
})
