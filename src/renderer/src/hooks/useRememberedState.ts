/**
 * What the user set on a screen (a table's page, sort and search; a filter form) kept for the session:
 * going to another screen and back shows it as it was left. In memory only, and per session
 * (stores/user's epoch): a logout or another login starts afresh.
 */
import { useEffect, useState, type Dispatch, type SetStateAction } from 'react'
import { useUserStore } from '@renderer/stores/user'

const remembered = new Map<string, unknown>()

/**
 * `useState` whose value outlives the component under `key`. `reuse` may refuse a remembered value
 * (e.g. one made for other fixed filters): the component then starts from `initial`.
 */
export function useRememberedState<T>(
  key: string,
  initial: () => T,
  reuse: (saved: T) => boolean = () => true,
): [T, Dispatch<SetStateAction<T>>] {
  const sessionEpoch = useUserStore((state) => state.sessionEpoch)
  const slot = `${sessionEpoch}:${key}`
  const [value, setValue] = useState<T>(() => {
    const saved = remembered.get(slot) as T | undefined
    return saved !== undefined && reuse(saved) ? saved : initial()
  })
  useEffect(() => {
    remembered.set(slot, value)
  }, [slot, value])
  return [value, setValue]
}

/** Forgets everything remembered (each test starts afresh). */
export function forgetRememberedState(): void {
  remembered.clear()
}
