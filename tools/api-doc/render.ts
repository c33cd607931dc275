/**
 * Renders docs/api.md from the contract: every call of src/shared/endpoints.ts with its method, path,
 * role and Chinese title, its request fields (types and limits from the zod schema, through
 * z.toJSONSchema) and the shape of its answer; then every named shape the calls use. What the schemas
 * cannot say (conventions, per-call notes, paying into the site) comes from the templates beside this
 * file. Pure: the caller reads the templates (generate.ts).
 */
import {
  API_PREFIX,
  endpoints as contract,
  fileSaveResultSchema,
  sortableFields,
  sortableWageFields,
  type Endpoint,
} from '../../src/shared/endpoints'
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
import { limits, refName, typeOf, type Schema } from './schema-text'

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
    [
      'Placeholders (anything else in `{…}` is refused):',
      '',
      '| Placeholder | Filled with |',
      '|---|---|',
      ...Object.entries(payoutTemplate.payoutPlaceholders).map(([key, text]) => `| \`{${key}}\` | ${cell(text)} |`),
    ].join('\n'),
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

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')

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
    for (const child of [
      s.items,
      ...(s.anyOf ?? []),
      ...Object.values((s.properties ?? {}) as object),
      ...Object.values((s.$defs ?? {}) as object),
    ])
      collect(child as Schema)
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
  const header = showWhere
    ? '| Field | In | Type | Required | Limits |\n|---|---|---|---|---|'
    : '| Field | Type | Required | Limits |\n|---|---|---|---|'
  const strict = json.additionalProperties === false ? '; any other field is refused (400)' : ''
  const places = [
    ...new Set(properties.map(([field]) => ({ path: 'the path', query: 'the query string', body: 'the JSON body' })[where(field)])),
  ]
  return [`Request, in ${places.join(' and ')}${strict}:`, '', header, ...rows].join('\n')
}

function answerSection(e: Endpoint, used: Set<string>): string {
  const json = toJson(e.output, 'output')
  collectRefs(json, used)
  const type = typeOf(json, 0)
  const note = limits(json)
  const shown = /^[A-Z]\w*(\[\])?$/.test(type)
    ? ` ${linked(type)}${note ? ` (${note})` : ''}.`
    : `\n\n${['```ts', `${type}${note ? `  // ${note}` : ''}`, '```'].join('\n')}`
  if (e.download)
    return `Answer: the file's bytes (an error is still the envelope). The desktop app saves them through a save dialog and answers the renderer with${shown}`
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
    return [`### ${name} — ${e.title}`, line, note?.text ?? '', requestSection(name, e, candidates, used), answerSection(e, used)]
      .filter(Boolean)
      .join('\n\n')
  })

  const shapeNames = [...used].sort()
  for (const key of notes.keys()) {
    if (!(key in endpoints) && !shapeNames.includes(key))
      throw new Error(`tools/api-doc/notes.md: "## ${key}" is neither a call nor a shape used by one`)
  }

  return (
    [
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
  )
}
