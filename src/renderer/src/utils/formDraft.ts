/**
 * A form's unsaved values, kept per server, page and user for the window's session (sessionStorage): a save
 * refused because the login ended, a re-login, or leaving the page by the menu loses nothing typed.
 * Cleared by a successful save or 撤销修改. The server address is part of the key: user and member ids are the
 * server's own (the first admin is 1 everywhere), so a draft made on one server never opens — nor saves into
 * whoever has that id — on another the login page was pointed at since.
 */
import { useSettingsStore } from '@renderer/stores/settings'

export interface FormDraft<T> {
  /** The saved version the values were edited from (a save made on it is refused once a newer one exists). */
  version: number
  values: T
}

const keyOf = (page: string, userId: number) => `formDraft:${useSettingsStore.getState().serverAddress}:${page}:${userId}`

export function readDraft<T>(page: string, userId: number): FormDraft<T> | null {
  try {
    const text = window.sessionStorage.getItem(keyOf(page, userId))
    if (!text) return null
    const draft = JSON.parse(text) as Partial<FormDraft<T>>
    return typeof draft.version === 'number' && draft.values && typeof draft.values === 'object' ? (draft as FormDraft<T>) : null
  } catch {
    return null
  }
}

export function writeDraft<T>(page: string, userId: number, draft: FormDraft<T>): void {
  try {
    window.sessionStorage.setItem(keyOf(page, userId), JSON.stringify(draft))
  } catch {
    // Storage full or unavailable: the form itself still holds the values.
  }
}

export function clearDraft(page: string, userId: number): void {
  try {
    window.sessionStorage.removeItem(keyOf(page, userId))
  } catch {
    // nothing kept
  }
}

/** The same values as far as a form is concerned: key order, `null` and absent do not count. */
export function sameValues(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b)
}

function canonical(value: unknown): string {
  return (
    JSON.stringify(value, (_key, item: unknown) => {
      if (item === null) return undefined
      if (item && typeof item === 'object' && !Array.isArray(item))
        return Object.fromEntries(Object.entries(item as Record<string, unknown>).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
      return item
    }) ?? ''
  )
}
