import type { KeyboardEvent } from 'react'
import type { FormInstance } from 'antd'

/**
 * Enter submits a form whose field is a select (product.md §5): antd's Select takes every Enter to open its list, so
 * such a form never submitted by keyboard. Put on the form's (or the field's wrapper's) `onKeyDownCapture`: with the
 * list closed, Enter submits, caught before the Select sees it; with the list open Enter still picks an option. A
 * dialog names its required `field` — with nothing chosen there Enter still opens the list; a filter form names none:
 * it searches with whatever is chosen, as Enter in its text boxes does.
 */
export function submitOnEnter<V>(form: FormInstance<V>, field?: string) {
  return (event: KeyboardEvent<HTMLElement>) => {
    const box = event.target as HTMLElement
    if (event.key !== 'Enter' || event.nativeEvent.isComposing || box.getAttribute('role') !== 'combobox') return
    if (box.getAttribute('aria-expanded') === 'true') return
    if (field !== undefined) {
      const value: unknown = form.getFieldValue(field as never)
      if (value === undefined || value === null || (Array.isArray(value) && !value.length)) return
    }
    event.preventDefault()
    event.stopPropagation()
    form.submit()
  }
}
