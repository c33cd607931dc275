/**
 * Malformed requests for every contract call, generated from the contract itself
 * (src/shared/endpoints.ts): its method, its path and its `{id}` segments, and the field names of
 * its input schema. The values are what a hostile member, a careless admin or a bad network sends:
 * wrong types, out-of-range and odd numbers, odd strings, unknown keys, bodies that are not JSON.
 */
import fc from 'fast-check'
import { API_PREFIX, endpointNames, endpoints, TOKEN_HEADER, type EndpointName } from '@shared/endpoints'
import type { z } from '@shared/validation'

export interface FuzzRequest {
  name: EndpointName
  method: 'GET' | 'POST'
  url: string
  headers: Record<string, string>
  /** Sent as is (already JSON or not JSON at all). */
  payload?: string
  /** The caller's address: logins come from many, so the limiter never locks the fuzzing admin out. */
  remoteAddress: string
  /** Whether the admin's token goes with it (else none, or a wrong one in `headers`). */
  asAdmin: boolean
}

/** Field names of an input schema (an object, possibly optional); none for anything else. */
export function inputFields(schema: z.ZodType): string[] {
  let current: unknown = schema
  for (let i = 0; i < 5; i++) {
    const def = (current as { def?: { type?: string; innerType?: unknown; shape?: unknown; in?: unknown } }).def
    if (!def) return []
    if (def.type === 'object') return Object.keys((current as { shape: Record<string, unknown> }).shape)
    if (def.innerType) current = def.innerType
    else if (def.type === 'pipe' && def.in) current = def.in
    else return []
  }
  return []
}

/**
 * Options that restrict the generators. Each names a known fault that is someone else's to fix
 * (the suite stays green meanwhile; the report lists them).
 */
export interface GeneratorOptions {
  /** NUL characters in strings. */
  nul?: boolean
}

/** What CI generates: everything but known faults (none open today: NUL in any text is answered). */
export const FUZZ_KNOWN_FAULTS: GeneratorOptions = { nul: true }

/** Strings that are not a valid value anywhere (a plain small positive integer would be a valid id). */
function hostileString(options: GeneratorOptions): fc.Arbitrary<string> {
  const special = fc.constantFrom(
    '',
    ' ',
    '-1',
    '0',
    '1.5',
    '1e999',
    '0x10',
    '99999999999999999999999',
    ' 1 ',
    '１２',
    'NaN',
    'Infinity',
    'null',
    'true',
    '[]',
    '{}',
    '__proto__',
    'constructor',
    "' or 1=1 --",
    '"; drop table users; --',
    '../../etc/passwd',
    '%00',
    '%zz',
    '\u202e',
    '\ud83d\ude00',
    '\ud800',
    'a'.repeat(10_000),
    '2026-13',
    '2026-00',
    '9999-12',
    'asc',
    'DESC; --',
  )
  const text = fc.string({ maxLength: 80, unit: 'binary' })
  const base = fc.oneof(special, text, fc.string({ maxLength: 300 }))
  return options.nul
    ? fc.oneof(
        base,
        base.map((s) => `${s}\u0000${s}`),
      )
    : base.map((s) => s.replaceAll('\u0000', ''))
}

const hostileNumber = fc.oneof(
  fc.constantFrom(-1, 0, -0, 1.5, 2 ** 31, 2 ** 53, 2 ** 63, -(2 ** 63), 1e308, -1e308, Number.MIN_VALUE),
  // Not a plain positive integer (that is a valid id, not a malformed one).
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d) || d <= 0),
  fc.integer({ min: -(2 ** 31), max: 0 }),
)

function hostileValue(options: GeneratorOptions): fc.Arbitrary<unknown> {
  const leaf = fc.oneof(hostileString(options), hostileNumber, fc.boolean(), fc.constant(null))
  return fc.oneof(
    { weight: 4, arbitrary: leaf },
    { weight: 1, arbitrary: fc.array(leaf, { maxLength: 5 }) },
    { weight: 1, arbitrary: fc.array(fc.integer({ min: -5, max: 5 }), { minLength: 0, maxLength: 1200 }) },
    { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), leaf, { maxKeys: 4 }) },
  )
}

/** An input object: some known fields hostile, maybe unknown keys besides. */
function hostileInput(fields: string[], options: GeneratorOptions): fc.Arbitrary<Record<string, unknown>> {
  const known = fields.length ? fc.subarray(fields, { minLength: 1 }) : fc.constant<string[]>([])
  return fc
    .tuple(
      known,
      fc.array(hostileValue(options), { minLength: fields.length, maxLength: fields.length }),
      fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), hostileValue(options), { maxKeys: 3 }),
    )
    .map(([chosen, values, extra]) => {
      const input: Record<string, unknown> = { ...extra }
      chosen.forEach((field, i) => (input[field] = values[i]))
      return input
    })
}

/** A body that is not a JSON object, or not JSON at all. */
const brokenBody = fc.oneof(
  fc.constantFrom(
    '',
    '{',
    '{"a":',
    'null',
    '[]',
    '"text"',
    '12',
    'true',
    '{"a":1}{"b":2}',
    '\uFEFF{}',
    '{"__proto__":{"admin":true}}',
    '['.repeat(5000),
  ),
  fc.string({ maxLength: 200 }).filter((s) => !s.trim().startsWith('{')),
)

/** Percent-encoded as a client would (a lone surrogate has no UTF-8: a client sends U+FFFD). */
function encode(value: unknown): string {
  const text = typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value ?? '')
  return encodeURIComponent(text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'))
}

function queryString(input: Record<string, unknown>): string {
  const parts: string[] = []
  for (const [key, value] of Object.entries(input)) {
    const values = Array.isArray(value) ? value.slice(0, 5) : [value]
    for (const v of values) parts.push(`${encode(key)}=${encode(v)}`)
  }
  return parts.length ? `?${parts.join('&')}` : ''
}

/** Fills `{name}` segments with the input's values (hostile ones included), encoded as a client would. */
function fillSegments(path: string, input: Record<string, unknown>): string {
  return path.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = input[key]
    delete input[key]
    return encode(value)
  })
}

const headerJunk = fc.oneof(
  fc.constant<Record<string, string>>({}),
  fc.constantFrom<Record<string, string>>(
    { 'content-type': 'text/plain' },
    { 'content-type': 'application/x-www-form-urlencoded' },
    { 'content-type': 'application/json; charset=latin1' },
    { 'content-type': 'multipart/form-data; boundary=x' },
    { accept: 'text/html' },
    { 'accept-encoding': 'gzip;q=abc' },
    { 'x-forwarded-for': '1.2.3.4, ::1' },
  ),
)

const wrongToken = fc.oneof(
  fc.constantFrom('', 'null', 'Bearer x', 'a'.repeat(5000), '../../'),
  fc.string({ maxLength: 64 }).filter((s) => /^[\x21-\x7e]*$/.test(s)),
)

const address = fc
  .tuple(fc.integer({ min: 1, max: 254 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 254 }))
  .map(([a, b, c]) => `10.${a}.${b}.${c}`)

/** One malformed request for the endpoint `name`. */
export function malformedRequest(name: EndpointName, options: GeneratorOptions = {}): fc.Arbitrary<FuzzRequest> {
  const endpoint = endpoints[name]
  const fields = [...new Set([...inputFields(endpoint.input), ...[...endpoint.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])])]
  const body = fc.oneof(
    { weight: 3, arbitrary: hostileInput(fields, options).map((input) => ({ input, raw: undefined as string | undefined })) },
    { weight: 1, arbitrary: brokenBody.map((raw) => ({ input: {} as Record<string, unknown>, raw })) },
    {
      weight: 1,
      arbitrary: hostileValue(options).map((value) => ({ input: {} as Record<string, unknown>, raw: JSON.stringify(value) ?? 'null' })),
    },
  )
  const caller = fc.oneof(
    { weight: 4, arbitrary: fc.constant<{ asAdmin: boolean; token?: string }>({ asAdmin: true }) },
    { weight: 1, arbitrary: fc.constant<{ asAdmin: boolean; token?: string }>({ asAdmin: false }) },
    { weight: 1, arbitrary: wrongToken.map((token) => ({ asAdmin: false, token })) },
  )
  return fc.record({ body, caller, headers: headerJunk, remoteAddress: address }).map(({ body: b, caller: c, headers, remoteAddress }) => {
    const input = { ...b.input }
    const path = fillSegments(endpoint.path, input)
    const all: Record<string, string> = { ...headers }
    if (c.token !== undefined) all[TOKEN_HEADER] = c.token
    const request: FuzzRequest = { name, method: endpoint.method, url: API_PREFIX + path, headers: all, remoteAddress, asAdmin: c.asAdmin }
    if (endpoint.method === 'GET') {
      request.url += queryString(input)
    } else {
      all['content-type'] ??= 'application/json'
      request.payload = b.raw ?? JSON.stringify(input)
    }
    return request
  })
}

/** A malformed request for any contract call. */
export function anyMalformedRequest(
  options: GeneratorOptions = {},
  names: readonly EndpointName[] = endpointNames,
): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(...names.map((name) => malformedRequest(name, options)))
}
