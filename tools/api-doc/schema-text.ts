/**
 * A JSON Schema (from z.toJSONSchema) as docs/api.md writes it: its type in TypeScript notation
 * (`integer` for whole numbers, shape names for each `$ref`) and its limits in words.
 */
import type { JSONSchema } from 'zod/v4/core'

export type Schema = JSONSchema.BaseSchema

/** `#/$defs/User` (one call's schema) or `User` (the registry's): the shape's name. */
export const refName = (ref: string) => ref.replace(/^#\/\$defs\//, '')

const SAFE = Number.MAX_SAFE_INTEGER

function variants(s: Schema): Schema[] | undefined {
  const list = s.anyOf ?? s.oneOf
  if (list) return list as Schema[]
  if (Array.isArray(s.type)) return s.type.map((type) => ({ ...s, type }) as Schema)
  return undefined
}

/** `indent` > -1: objects over several lines at that depth; -1: on one line (table cells). */
export function typeOf(s: Schema, indent = -1): string {
  if (s.$ref) return refName(s.$ref)
  const alternatives = variants(s)
  if (alternatives) return alternatives.map((v) => typeOf(v, indent)).join(' | ')
  if (s.const !== undefined) return JSON.stringify(s.const)
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ')
  switch (s.type) {
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean':
    case 'null':
      return s.type
    case 'array': {
      const item = typeOf((s.items ?? {}) as Schema, indent)
      return /[| ]/.test(item) && !item.endsWith('}') ? `(${item})[]` : `${item}[]`
    }
    case 'object':
      return objectType(s, indent)
    default:
      return 'unknown'
  }
}

function objectType(s: Schema, indent: number): string {
  const properties = Object.entries((s.properties ?? {}) as Record<string, Schema>)
  const extra = s.additionalProperties
  if (properties.length === 0) return extra && typeof extra === 'object' ? `Record<string, ${typeOf(extra as Schema, indent)}>` : '{}'
  const required = new Set(s.required ?? [])
  const field = ([name, value]: [string, Schema]) =>
    `${/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name)}${required.has(name) ? '' : '?'}: ${typeOf(value, indent < 0 ? -1 : indent + 1)}`
  if (indent < 0) return `{ ${properties.map(field).join('; ')} }`
  const pad = '  '.repeat(indent + 1)
  const lines = properties.map(([name, value]) => {
    const note = limits(value)
    return `${pad}${field([name, value])}${note ? `  // ${note}` : ''}`
  })
  return `{\n${lines.join('\n')}\n${'  '.repeat(indent)}}`
}

const num = (n: number) => n.toLocaleString('en-US')

/** A value's bounds: `1–200`, `≥ 0`, `> 0, ≤ 1,000`. Whole numbers say an exclusive bound as the inclusive one. */
function valueRange(s: Schema): string | null {
  const whole = s.type === 'integer'
  let min = s.minimum as number | undefined
  let max = s.maximum as number | undefined
  let exclusiveMin = s.exclusiveMinimum as number | undefined
  let exclusiveMax = s.exclusiveMaximum as number | undefined
  if (whole && exclusiveMin !== undefined) [min, exclusiveMin] = [exclusiveMin + 1, undefined]
  if (whole && exclusiveMax !== undefined) [max, exclusiveMax] = [exclusiveMax - 1, undefined]
  if (min !== undefined && min <= -SAFE) min = undefined
  if (max !== undefined && max >= SAFE) max = undefined
  if (min !== undefined && max !== undefined) return `${num(min)}–${num(max)}`
  const lo = exclusiveMin !== undefined ? `> ${num(exclusiveMin)}` : min !== undefined ? `≥ ${num(min)}` : ''
  const hi = exclusiveMax !== undefined ? `< ${num(exclusiveMax)}` : max !== undefined ? `≤ ${num(max)}` : ''
  return [lo, hi].filter(Boolean).join(', ') || null
}

/** A length or a count: `1–64 characters`, `at most 500 items`. */
function sizeRange(min: number | undefined, max: number | undefined, unit: string): string | null {
  if (min !== undefined && max !== undefined) return `${num(min)}–${num(max)} ${unit}`
  if (max !== undefined) return `at most ${num(max)} ${unit}`
  if (min !== undefined && min > 0) return `at least ${num(min)} ${min === 1 ? unit.replace(/s$/, '') : unit}`
  return null
}

/** The rules a value must meet, in words (the schema's `type` says the rest). */
export function limits(s: Schema): string {
  if (s.$ref || s.const !== undefined || s.enum) return ''
  const alternatives = variants(s)
  if (alternatives) return alternatives.map(limits).filter(Boolean).join('; ')
  const out: string[] = []
  if (s.type === 'string') {
    const length = sizeRange(s.minLength, s.maxLength, 'characters')
    if (length) out.push(length)
    if (s.format === 'date-time') out.push('ISO 8601 date-time with offset')
    else if (s.format) out.push(s.format)
    else if (s.pattern) out.push(`matches \`${s.pattern}\``)
  } else if (s.type === 'number' || s.type === 'integer') {
    const value = valueRange(s)
    if (value) out.push(value)
  } else if (s.type === 'array') {
    const count = sizeRange(s.minItems, s.maxItems, 'items')
    if (count) out.push(count)
    const item = limits((s.items ?? {}) as Schema)
    if (item) out.push(`each ${item}`)
  }
  return out.join(', ')
}
