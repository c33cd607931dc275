/**
 * Which columns a user hid in a table, remembered per table key in localStorage. It is a display
 * preference (never a secret), and a broken or missing entry just means "the defaults".
 */
import { useCallback, useState } from 'react'

const STORAGE_PREFIX = 'dataTable.hiddenColumns.'

export function storageKey(tableKey: string): string {
  return `${STORAGE_PREFIX}${tableKey}`
}

/** The saved hidden column keys, or null when nothing (usable) was saved. */
export function loadHiddenColumns(tableKey: string): string[] | null {
  try {
    const saved: unknown = JSON.parse(window.localStorage.getItem(storageKey(tableKey)) ?? 'null')
    return Array.isArray(saved) && saved.every((key) => typeof key === 'string') ? saved : null
  } catch {
    return null
  }
}

function saveHiddenColumns(tableKey: string, hidden: readonly string[] | null): void {
  try {
    if (hidden) window.localStorage.setItem(storageKey(tableKey), JSON.stringify(hidden))
    else window.localStorage.removeItem(storageKey(tableKey))
  } catch {
    // Storage full or disabled: the choice still holds for this visit.
  }
}

/**
 * Hidden column keys: the saved choice, else `defaults`. `setHidden(null)` forgets the choice
 * (back to the defaults).
 */
export function useHiddenColumns(tableKey: string, defaults: readonly string[]) {
  const [saved, setSaved] = useState<string[] | null>(() => loadHiddenColumns(tableKey))
  const setHidden = useCallback(
    (hidden: string[] | null) => {
      saveHiddenColumns(tableKey, hidden)
      setSaved(hidden)
    },
    [tableKey],
  )
  return [saved ?? defaults, setHidden] as const
}
