/**
 * Chinese labels write units in full-width brackets — 做种时长（小时）, as the rules form and the
 * exports do — never in half-width ones, so the same label reads the same on every screen.
 */
import { describe, expect, it } from 'vitest'

// Every source of the renderer as text (Vite reads them; the renderer has no file system access).
const files = import.meta.glob<string>(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}'], { query: '?raw', import: 'default', eager: true })

describe('Chinese labels', () => {
  it('put a unit in full-width brackets: （小时） not (小时)', () => {
    expect(Object.keys(files).length).toBeGreaterThan(50)
    const halfWidth = Object.entries(files).flatMap(([path, text]) => (/\((小时|天|GiB|魔力|个)\)/.test(text) ? [path] : []))
    expect(halfWidth).toEqual([])
  })
})
