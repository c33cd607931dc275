/**
 * Renders docs/api.md from the contract: every call of src/shared/endpoints.ts with its method, path,
 * role and Chinese title, its request fields (types and limits from the zod schema, through
 * z.toJSONSchema) and the shape of its answer; then every named shape the calls use. What the schemas
 * cannot say (conventions, per-call notes, paying into the site) comes from the templates beside this
 * file. Pure: the caller reads the templates (generate.ts).
 */
import type { JSONSchema } from 'zod/v4/core'
import { API_PREFIX, endpoints as contract, fileSaveResultSchema, sortableFields, sortableWageFields, type Endpoint } from '../../src/shared/endpoints'
import * as entities from '../../src/shared/entities'
import {
  accountStatusLabels,
  assignmentLabels,
  claimStateLabels,
  completionLabels,
  roleLabels,
  seedStatusLabels,
  seedTypeLabels,
  sourceKindLabels,
} from '../../src/shared/enums'
import * as payout from '../../src/shared/payout'
import * as payoutTemplate from '../../src/shared/payout-template'
import { z } from '../../src/shared/validation'

type Schema = JSONSchema.BaseSchema

export interface Templates {
  /** Title, conventions: everything before the list of calls. */
  header: string
  /** Per-call and per-shape notes: `## <call name>` (` (seed)` marks the original console's calls) or `## <Shape>`. */
  notes: string
  /** Calls outside the contract and longer prose: after the shapes. */
  footer: string
}

/** Chinese labels of the named enums (shown with their values in「Shapes」). */
const enumLabels: Record<string, Record<string | number, string>> = {
  AccountStatus: accountStatusLabels,
  AssignmentLabel: assignmentLabels,
  ClaimState: claimStateLabels,
  Completion: completionLabels,
  Role: roleLabels,
  SeedStatus: seedStatusLabels,
  SeedType: seedTypeLabels,
}

/** A table cell: pipes escaped (also inside code), on one line. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')

/** Generated text under a shape, from the contract's own tables. */
const shapeExtras: Record<string, () => string> = {
  SyncStatus: () =>
    `\`source\`: ${Object.entries(sourceKindLabels)
      .map(([kind, label]) => `\`${kind}\` ${label}`)
      .join(' · ')}.`,
  PayoutMessageTemplate: () =>
    ['Placeholders (anything else in `{…}` is refused):', '', '| Placeholder | Filled with |', '|---|---|', ...Object.entries(payoutTemplate.payoutPlaceholders).map(([key, text]) => `| \`{${key}}\` | ${cell(text)} |`)].join('\n'),
}

/** Every exported `fooSchema` of the entity modules is the shape `Foo`: the docs name it instead of repeating it. */
function shapeRegistry() {
  const registry = z.registry<{ id: string }>()
  const modules: Record<string, unknown>[] = [entities, payout, payoutTemplate, { fileSaveResultSchema }]
  for (const module of modules) {
    for (const [key, value] of Object.entries(module)) {
      if (!key.endsWith('Schema') || !(value instanceof z.ZodType) || registry.has(value)) continue
      registry.add(value, { id: key[0]!.toUpperCase() + key.slice(1, -'Schema'.length) })
    }
  }
  return registry
}

const registry = shapeRegistry()
const shapes = z.toJSONSchema(registry, { io: 'output', unrepresentable: 'any', uri: (id) => id }).schemas

function toJson(schema: z.ZodType, io: 'input' | 'output'): Schema {
  return z.toJSONSchema(schema, { io, unrepresentable: 'any', metadata: registry }) as Schema
}

const refName = (ref: string) => ref.replace(/^#\/\$defs\//, '')

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')

// ---- types (TypeScript notation) and limits ----

const SAFE = Number.MAX_SAFE_INTEGER

function variants(s: Schema): Schema[] | undefined {
  const list = s.anyOf ?? s.oneOf
  if (list) return list as Schema[]
  if (Array.isArray(s.type)) return s.type.map((type) => ({ ...s, type }) as Schema)
  return undefined
}

/** `indent` > -1: objects over several lines at that depth; -1: on one line (table cells). */
function typeOf(s: Schema, indent = -1): string {
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
  const field = ([name, value]: [string, Schema]) => `${/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name)}${required.has(name) ? '' : '?'}: ${typeOf(value, indent < 0 ? -1 : indent + 1)}`
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
function limits(s: Schema): string {
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

// ---- calls ----

interface Note {
  seed: boolean
  text: string
}

function parseNotes(source: string): Map<string, Note> {
  const notes = new Map<string, Note>()
  for (const section of source.split(/^## /m).slice(1)) {
    const [heading = '', ...body] = section.split('\n')
    const match = /^(\S+)( \(seed\))?\s*$/.exec(heading)
    if (!match) throw new Error(`tools/api-doc/notes.md: cannot read the heading "## ${heading}"`)
    notes.set(match[1]!, { seed: Boolean(match[2]), text: body.join('\n').trim() })
  }
  return notes
}

const sortLists: readonly (readonly string[])[] = [...Object.values(sortableFields), ...Object.values(sortableWageFields)]

/**
 * The fields `orderBy` accepts (the schema refines a string, which JSON Schema cannot say): every known
 * sortable name, tried; in the order of the contract's list when one of them is exactly this set.
 */
function sortFields(input: z.ZodType, candidates: Set<string>): string[] {
  const orderBy = input instanceof z.ZodObject ? (input.shape as Record<string, z.ZodType>).orderBy : undefined
  if (!orderBy) return []
  const accepted = [...candidates].filter((field) => orderBy.safeParse(`${field} ASC`).success)
  const list = sortLists.find((l) => l.length === accepted.length && l.every((field) => accepted.includes(field)))
  return list ? [...list] : accepted.sort()
}

function sortCandidates(contract: Record<string, Endpoint>): Set<string> {
  const names = new Set<string>(sortLists.flat())
  const collect = (s: Schema | undefined): void => {
    if (!s || typeof s !== 'object') return
    for (const key of Object.keys((s.properties ?? {}) as object)) names.add(key)
    for (const child of [s.items, ...(s.anyOf ?? []), ...Object.values((s.properties ?? {}) as object), ...Object.values((s.$defs ?? {}) as object)]) collect(child as Schema)
  }
  for (const e of Object.values(contract)) collect(toJson(e.output, 'output'))
  return names
}

const roleText = { public: 'public', member: 'M', admin: 'A' } as const

/** A shape's name (or a list of it) as a link to its section; other types as code. */
function linked(type: string): string {
  const shape = /^([A-Z]\w*)(\[\])?$/.exec(type)
  return shape && shapes[shape[1]!] ? `[\`${type}\`](#${anchor(shape[1]!)})` : `\`${cell(type)}\``
}

function requestSection(name: string, e: Endpoint, candidates: Set<string>, used: Set<string>): string {
  let json = toJson(e.input, 'input')
  // A named input shape (RuleBody, PayoutSelection…) is listed field by field here, not under「Shapes」.
  if (json.$ref) json = (json.$defs as Record<string, Schema>)[refName(json.$ref)]!
  collectRefs(json, used)
  const properties = Object.entries((json.properties ?? {}) as Record<string, Schema>)
  if (properties.length === 0) return 'Request: none.'
  const required = new Set(json.required ?? [])
  const where = (field: string) => (e.path.includes(`{${field}}`) ? 'path' : e.method === 'GET' ? 'query' : 'body')
  // Where a field travels is worth a column only when it is not always the body.
  const showWhere = properties.some(([field]) => where(field) !== 'body')
  const rows = properties.map(([field, s]) => {
    let rule = limits(s)
    if (field === 'orderBy') {
      const fields = sortFields(e.input, candidates)
      if (fields.length === 0) throw new Error(`${name}: orderBy accepts none of the known field names`)
      rule = `\`"<field> ASC"\` or \`"<field> DESC"\`, field one of ${fields.map((f) => `\`${f}\``).join(', ')}`
    }
    const columns = [`\`${field}\``, ...(showWhere ? [where(field)] : []), linked(typeOf(s)), required.has(field) ? 'yes' : '', cell(rule)]
    return `| ${columns.join(' | ')} |`
  })
  const header = showWhere ? '| Field | In | Type | Required | Limits |\n|---|---|---|---|---|' : '| Field | Type | Required | Limits |\n|---|---|---|---|'
  const strict = json.additionalProperties === false ? '; any other field is refused (400)' : ''
  const places = [...new Set(properties.map(([field]) => ({ path: 'the path', query: 'the query string', body: 'the JSON body' })[where(field)]))]
  return [`Request, in ${places.join(' and ')}${strict}:`, '', header, ...rows].join('\n')
}

function answerSection(e: Endpoint, used: Set<string>): string {
  const json = toJson(e.output, 'output')
  collectRefs(json, used)
  const type = typeOf(json, 0)
  const note = limits(json)
  const shown = /^[A-Z]\w*(\[\])?$/.test(type) ? ` ${linked(type)}${note ? ` (${note})` : ''}.` : `\n\n${['```ts', `${type}${note ? `  // ${note}` : ''}`, '```'].join('\n')}`
  if (e.download) return `Answer: the file's bytes (an error is still the envelope). The desktop app saves them through a save dialog and answers the renderer with${shown}`
  return `Answer \`data\`:${shown}`
}

function collectRefs(s: unknown, into: Set<string>): void {
  if (!s || typeof s !== 'object') return
  for (const [key, value] of Object.entries(s)) {
    if (key === '$ref' && typeof value === 'string') {
      const name = refName(value)
      if (!into.has(name)) {
        into.add(name)
        collectRefs(shapes[name], into)
      }
    } else collectRefs(value, into)
  }
}

function shapeSection(name: string, note: Note | undefined): string {
  const s = shapes[name] as Schema
  const labels = enumLabels[name]
  const values = labels && s.enum ? `\n// ${s.enum.map((v) => `${JSON.stringify(v)} ${labels[v as string]}`).join(' · ')}` : ''
  const limit = s.type !== 'object' ? limits(s) : ''
  const lines = [`### ${name}`, '', '```ts', `type ${name} = ${typeOf(s, 0)}${limit ? `  // ${limit}` : ''}${values}`, '```']
  if (note?.text) lines.push('', note.text)
  const extra = shapeExtras[name]
  if (extra) lines.push('', extra())
  return lines.join('\n')
}

export function renderApiDoc(templates: Templates, endpoints: Record<string, Endpoint> = contract): string {
  const notes = parseNotes(templates.notes)
  const candidates = sortCandidates(endpoints)
  const used = new Set<string>()
  const calls = Object.entries(endpoints)

  const table = calls.map(([name, e]) => {
    const heading = `${name} — ${e.title}`
    const seed = notes.get(name)?.seed ? ' (seed)' : ''
    return `| [\`${name}\`](#${anchor(heading)})${seed} | ${e.method} | ${e.path} | ${roleText[e.access]} | ${e.title} |`
  })

  const sections = calls.map(([name, e]) => {
    const note = notes.get(name)
    const line = `\`${e.method} ${API_PREFIX}${e.path}\` · ${e.access}${note?.seed ? ' · seed' : ''}`
    return [`### ${name} — ${e.title}`, line, note?.text ?? '', requestSection(name, e, candidates, used), answerSection(e, used)].filter(Boolean).join('\n\n')
  })

  const shapeNames = [...used].sort()
  for (const key of notes.keys()) {
    if (!(key in endpoints) && !shapeNames.includes(key)) throw new Error(`tools/api-doc/notes.md: "## ${key}" is neither a call nor a shape used by one`)
  }

  return [
    templates.header.trim(),
    '## Calls',
    `Base path \`${API_PREFIX}\`. Who: **public** (no token), **M** any logged-in user, **A** admins. Calls marked (seed) are the original console's and keep their method, path and meaning.`,
    ['| Call | Method | Path | Who | 说明 |', '|---|---|---|---|---|', ...table].join('\n'),
    ...sections,
    '## Shapes',
    `Named shapes of the answers (and of some requests), as TypeScript. \`integer\` is a whole number; limits follow \`//\`. Where a shape has a section here, the calls name it instead of repeating it.`,
    ...shapeNames.map((name) => shapeSection(name, notes.get(name))),
    templates.footer.trim(),
  ].join('\n\n') + '\n'
}
