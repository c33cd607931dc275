/** A settings backend in memory, with electron-store's one-key and several-key `set`. */
import type { KeyValueBackend } from '../settings-store'

export function memoryBackend(values = new Map<string, unknown>()): KeyValueBackend & { values: Map<string, unknown> } {
  function set(key: string, value: unknown): void
  function set(entries: Record<string, unknown>): void
  function set(key: string | Record<string, unknown>, value?: unknown): void {
    if (typeof key === 'string') values.set(key, value)
    else for (const [name, entry] of Object.entries(key)) values.set(name, entry)
  }
  return { values, get: (key) => values.get(key), set, delete: (key) => void values.delete(key) }
}
