/**
 * Malformed HTTP for a listening server, below what `inject` can send: odd methods and versions,
 * request targets with bad percent-encoding or raw bytes, headers without a colon, with control
 * characters, huge or many, lying lengths, broken chunking. Targets come from the contract's paths.
 */
import { connect } from 'node:net'
import fc from 'fast-check'
import { API_PREFIX, endpoints, TOKEN_HEADER } from '@shared/endpoints'

export interface RawRequest {
  /** The bytes sent, then the client half-closes. */
  bytes: Buffer
  head: boolean
  /** Sends the admin's token header (filled in when sent). */
  asAdmin: boolean
  summary: string
}

const paths = Object.values(endpoints).map((e) => API_PREFIX + e.path)

const segment = fc.oneof(
  fc.constantFrom('1', '0', '-1', '%zz', '%', '%E0%A4%A', '%00', '%2F', '..', '1'.repeat(600), '１', '%C0%AF', 'a b'),
  fc.string({ maxLength: 20 }).map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, ''))),
)

const target = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        fc.constantFrom(...paths),
        segment,
        fc.constantFrom('', '?', '?a=%', '?page=%zz', '?x=1&x=2', '#frag', '?' + 'q=1&'.repeat(500)),
      )
      .map(([p, s, q]) => p.replace(/\{\w+\}/g, s) + q),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '*',
      'http://evil.example/api/v1/health',
      '/api/v1/../../etc/passwd',
      '//api//v1//health',
      '/api/v1/health/' + 'x'.repeat(9000),
      '',
      ' ',
      '/api/v1/\u00e9\u4e2d',
    ),
  },
)

const method = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('GET', 'POST', 'HEAD') },
  { weight: 1, arbitrary: fc.constantFrom('PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE', 'get', 'G\tET', 'XYZ', '') },
)
const version = fc.oneof(
  { weight: 6, arbitrary: fc.constant('HTTP/1.1') },
  { weight: 1, arbitrary: fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1x', '', 'HTTP/9.9', 'http/1.1') },
)

const header = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'Content-Type: application/json',
      'Content-Type: text/plain',
      'Accept: */*',
      'Connection: keep-alive',
      'Connection: close',
      'Expect: 100-continue',
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'NoColonHere',
      'Bad Name: x',
      ': empty-name',
      'X-Ctl: a\u0001b',
      'X-Del: a\u007fb',
      'Content-Length: -1',
      'Content-Length: 1e3',
      'Content-Length: 99999999999999999999',
      'Content-Length: 3\r\nContent-Length: 4',
      'Transfer-Encoding: chunked',
      'Transfer-Encoding: gzip, chunked',
      'Transfer-Encoding: chunked\r\nContent-Length: 3',
      `${TOKEN_HEADER}: ${'t'.repeat(300)}`,
      ' folded: continuation',
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 70_000 }).map((n) => `X-Big: ${'b'.repeat(n)}`) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 50, max: 300 }).map((n) => Array.from({ length: n }, (_, i) => `X-Many-${i}: ${i}`).join('\r\n')),
  },
)

const body = fc.oneof(
  fc.constantFrom('', '{}', '{"page":1,"pageSize":10}', '{', '0\r\n\r\n', 'zz\r\nabc\r\n0\r\n\r\n', '5\r\nab\r\n'),
  fc.string({ maxLength: 200 }),
)

export interface RawOptions {
  /** HTTP/1.1 requests without a Host header (refused with the envelope: http/errors.ts requireHostHeader). */
  hostlessHttp11?: boolean
  /**
   * Bytes after a complete request (a body sent without a length): a second request, often
   * malformed — answered after the first (http/errors.ts clientErrorHandler).
   */
  trailingBytes?: boolean
}

/** What CI generates: everything. */
export const RAW_IN_CI: RawOptions = { hostlessHttp11: true, trailingBytes: true }

export function rawRequest(options: RawOptions = {}): fc.Arbitrary<RawRequest> {
  return fc
    .record({
      method,
      target,
      version,
      host: fc.oneof({ weight: 5, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
      headers: fc.array(header, { maxLength: 4 }),
      body,
      lengthFits: fc.boolean(),
      newline: fc.oneof({ weight: 5, arbitrary: fc.constant('\r\n') }, { weight: 1, arbitrary: fc.constant('\n') }),
      asAdmin: fc.boolean(),
    })
    .map((r) => {
      const lines = [`${r.method} ${r.target} ${r.version}`.trim()]
      if (r.host || (r.version === 'HTTP/1.1' && !options.hostlessHttp11)) lines.push('Host: 127.0.0.1')
      lines.push(...r.headers.map((h) => h.replaceAll('\r\n', r.newline)))
      const framed = r.headers.some((h) => /^(content-length|transfer-encoding):/im.test(h))
      if (r.body && (r.lengthFits || (!options.trailingBytes && !framed))) lines.push(`Content-Length: ${Buffer.byteLength(r.body)}`)
      const text = lines.join(r.newline) + r.newline + r.newline + r.body
      return {
        bytes: Buffer.from(text, 'utf8'),
        head: r.method === 'HEAD',
        asAdmin: r.asAdmin,
        summary: JSON.stringify(text.length > 400 ? `${text.slice(0, 160)}…(${text.length} chars)…${text.slice(-240)}` : text),
      }
    })
}

/** Sends the bytes (with the token header after the request line when asked), half-closes, reads until the server closes. */
export function sendRaw(port: number, request: RawRequest, token: string | null, limitMs = 10_000): Promise<string> {
  let bytes = request.bytes
  if (token) {
    const text = bytes.toString('utf8')
    const eol = text.indexOf('\n')
    if (eol > 0) bytes = Buffer.from(`${text.slice(0, eol + 1)}${TOKEN_HEADER}: ${token}\r\n${text.slice(eol + 1)}`, 'utf8')
  }
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    // A bound for a broken test, not a wait: the server answers or closes at once after our end.
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`no close within ${limitMs} ms; got ${JSON.stringify(Buffer.concat(chunks).toString('latin1').slice(0, 300))}`))
    }, limitMs)
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('error', () => {}) // a reset after the answer is the server closing a bad connection
    socket.on('close', () => {
      clearTimeout(timer)
      resolve(Buffer.concat(chunks).toString('utf8'))
    })
    socket.end(bytes)
  })
}

const CJK = /[\u4e00-\u9fff]/

/** The status of the final answer (past any `100 Continue`); 0 when the server closed without one. */
export function finalStatus(response: string): number {
  for (const match of response.matchAll(/(?:^|\r\n\r\n)HTTP\/1\.[01] (\d{3})/g)) if (Number(match[1]) >= 200) return Number(match[1])
  return 0
}

/**
 * Judges every response in what came back (a pipelined remainder may get its own): never a 5xx,
 * and each answer with a body is the envelope, in Chinese unless it is a success. Null when right.
 */
export function judgeRaw(response: string, head: boolean): string | null {
  // Closed without an answer: Node aborts a request whose client half-closed before an async
  // answer (PostgreSQL), and drops a request cut off mid-body. Nothing leaked, nothing half-said.
  if (!response) return null
  let rest = response
  while (rest.length) {
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(rest)
    if (!status) return `not an HTTP answer: ${JSON.stringify(rest.slice(0, 200))}`
    const code = Number(status[1])
    if (code >= 500) return `answered ${code}: ${JSON.stringify(rest.slice(0, 300))}`
    const split = rest.indexOf('\r\n\r\n')
    if (split < 0) return `answer without the end of its head: ${JSON.stringify(rest.slice(0, 200))}`
    const headText = rest.slice(0, split).toLowerCase()
    const length = /\r\ncontent-length: *(\d+)/.exec(headText)
    const after = rest.slice(split + 4)
    // A HEAD's answer has no body, unless the request never got parsed as a HEAD (a malformed one).
    const bodiless = code < 200 || code === 204 || code === 304 || (head && (after === '' || after.startsWith('HTTP/1.')))
    const size = bodiless ? 0 : length ? Number(length[1]) : Buffer.byteLength(after)
    const bodyText = Buffer.from(rest.slice(split + 4), 'utf8')
      .subarray(0, size)
      .toString('utf8')
    rest = Buffer.from(rest.slice(split + 4), 'utf8')
      .subarray(size)
      .toString('utf8')
    if (!size) continue
    if (code === 200 && !/content-type: *application\/json/.test(headText)) continue // a download
    let envelope: { code?: unknown; msg?: unknown; data?: unknown }
    try {
      envelope = JSON.parse(bodyText) as typeof envelope
    } catch {
      return `${code} not JSON: ${JSON.stringify(bodyText.slice(0, 200))}`
    }
    if (typeof envelope?.code !== 'number' || typeof envelope.msg !== 'string' || !('data' in envelope))
      return `${code} not the envelope: ${bodyText.slice(0, 200)}`
    if (code !== 200 && !CJK.test(envelope.msg)) return `${code} message not in Chinese: ${envelope.msg}`
  }
  return null
}
