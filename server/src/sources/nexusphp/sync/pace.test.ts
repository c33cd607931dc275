import { describe, expect, it } from 'vitest'
import { WindowPace } from './pace'

describe('the window span on a table the tracker waits for', () => {
  it('starts at a quarter of the cap, grows while statements stay well under the target, never past the cap', () => {
    const pace = new WindowPace(8_000, 20)
    expect(pace.span).toBe(2_000)
    expect(WindowPace.start(8_000)).toBe(2_000)
    for (let i = 0; i < 3; i++) pace.record(4)
    expect(pace.span).toBe(2_500)
    for (let i = 0; i < 60; i++) pace.record(4)
    expect(pace.span).toBe(8_000)
  })

  it('halves when two statements in a row ran past the target, never below its start', () => {
    const pace = new WindowPace(8_000, 20)
    for (let i = 0; i < 30; i++) pace.record(4)
    expect(pace.span).toBe(8_000)
    pace.record(45)
    expect(pace.span).toBe(8_000) // one slow answer may be our own write holding it up
    pace.record(30)
    expect(pace.span).toBe(4_000)
    for (let i = 0; i < 20; i++) pace.record(200)
    expect(pace.span).toBe(2_000)
  })

  it('holds its span while the statements are near the target, or mixed', () => {
    const pace = new WindowPace(8_000, 20)
    for (const ms of [12, 15, 18, 4, 60, 5, 11, 25, 9]) pace.record(ms)
    expect(pace.span).toBe(2_000)
  })

  it('a tiny cap stays a window of at least one id', () => {
    const pace = new WindowPace(2, 20)
    expect(pace.span).toBe(1)
    for (let i = 0; i < 20; i++) pace.record(500)
    expect(pace.span).toBe(1)
  })
})
