/**
 * For an element that opens something by click but is not a button or a link with an address (a table row, an `<a>`
 * without `href`): a Tab stop, and Enter or Space opens it as a click does (product.md §5: keyboard use).
 */
import type { KeyboardEvent } from 'react'

export function keyboardOpen(open: () => void) {
  return {
    tabIndex: 0,
    onKeyDown: (event: KeyboardEvent<HTMLElement>) => {
      // Keys meant for a control inside (a checkbox, a button) are theirs.
      if (event.target !== event.currentTarget || (event.key !== 'Enter' && event.key !== ' ')) return
      event.preventDefault()
      open()
    },
  }
}
