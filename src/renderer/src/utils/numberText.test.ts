import { describe, expect, it } from 'vitest'
import { parseNumberText, toAsciiNumber } from './numberText'

describe('numbers typed in full-width mode', () => {
  it('reads full-width digits, decimal points and minus signs as ASCII', () => {
    expect(toAsciiNumber('１２３４５６７８９０')).toBe('1234567890')
    expect(toAsciiNumber('０．５')).toBe('0.5')
    expect(toAsciiNumber('０。５')).toBe('0.5')
    expect(toAsciiNumber('－３')).toBe('-3')
    expect(toAsciiNumber('alice ４２')).toBe('alice 42')
  })

  it('parses a number box as antd does, after reading the full-width forms', () => {
    expect(parseNumberText('４')).toBe('4')
    expect(parseNumberText('１２。５')).toBe('12.5')
    expect(parseNumberText('1,000')).toBe('1000')
    expect(parseNumberText('')).toBe('')
    expect(parseNumberText(undefined)).toBe('')
  })
})
