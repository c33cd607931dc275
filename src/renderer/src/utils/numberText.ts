/**
 * Numbers typed with a Chinese IME in full-width mode: `１２３`, `０．５` or `０。５`, `－３`. Every number
 * the user types (number boxes, numeric search fields, the site-uid picker) is read through here, so
 * the full-width forms count as the digits they show.
 */

const FULL_WIDTH_DIGIT = /[０-９]/g
/** `．` (full-width full stop) and `。` (ideographic full stop): the decimal point in full-width mode. */
const FULL_WIDTH_POINT = /[．。]/g
const FULL_WIDTH_MINUS = /[－]/g
/** U+FF10 `０` − U+0030 `0`. */
const FULL_WIDTH_OFFSET = 0xfee0

/** The text with full-width digits, decimal points and minus signs as their ASCII forms; the rest as it was. */
export function toAsciiNumber(text: string): string {
  return text
    .replace(FULL_WIDTH_DIGIT, (digit) => String.fromCharCode(digit.charCodeAt(0) - FULL_WIDTH_OFFSET))
    .replace(FULL_WIDTH_POINT, '.')
    .replace(FULL_WIDTH_MINUS, '-')
}

/**
 * The parser of every number box (components/NumberInput): antd's own parser keeps only `[\w.-]` —
 * dropping full-width digits, so `４` became an empty box — and turns `。` into `.` only when no parser is
 * given. This one reads the full-width forms first, then drops what antd's drops (`1,000`, spaces).
 */
export function parseNumberText(text: string | undefined): string {
  return toAsciiNumber(text ?? '').replace(/[^\w.-]+/g, '')
}
