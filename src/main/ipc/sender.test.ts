import { describe, expect, it } from 'vitest'
import { createSenderCheck } from './sender'

describe('IPC sender check', () => {
  it('accepts only the built page as a top-level frame', () => {
    const trusted = createSenderCheck('file:///opt/app/out/renderer/index.html')
    expect(trusted({ url: 'file:///opt/app/out/renderer/index.html#/login', parent: null })).toBe(true)
    expect(trusted({ url: 'file:///tmp/evil.html', parent: null })).toBe(false)
    expect(trusted({ url: 'file:///opt/app/out/renderer/index.html', parent: {} })).toBe(false)
    expect(trusted({ url: 'https://evil.example/', parent: null })).toBe(false)
    expect(trusted(null)).toBe(false)
    expect(trusted({ url: 'garbage', parent: null })).toBe(false)
  })

  it('accepts the dev server origin and nothing else', () => {
    const trusted = createSenderCheck('http://localhost:5173/')
    expect(trusted({ url: 'http://localhost:5173/#/task', parent: null })).toBe(true)
    expect(trusted({ url: 'http://localhost:5174/', parent: null })).toBe(false)
    expect(trusted({ url: 'http://127.0.0.1:5173/', parent: null })).toBe(false)
  })
})

describe('IPC sender check (app:// scheme)', () => {
  it('accepts app://bundle pages only', () => {
    const trusted = createSenderCheck('app://bundle/index.html')
    expect(trusted({ url: 'app://bundle/index.html#/task', parent: null })).toBe(true)
    expect(trusted({ url: 'app://evil/index.html', parent: null })).toBe(false)
    expect(trusted({ url: 'http://bundle/index.html', parent: null })).toBe(false)
    expect(trusted({ url: 'app://bundle/index.html', parent: { url: 'x' } })).toBe(false)
  })
})
