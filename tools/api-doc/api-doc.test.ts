/** docs/api.md is what the contract and the templates say (`npm run docs:api` rewrites it). */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { endpoints, type Endpoint } from '../../src/shared/endpoints'
import { z } from '../../src/shared/validation'
import { apiDocFile, generateApiDoc } from './generate'
import { renderApiDoc, type Templates } from './render'

const templates: Templates = { header: '# API', notes: '', footer: '' }

describe('docs/api.md', () => {
  it('is current: regenerated from the contract it reads the same (else run `npm run docs:api`)', () => {
    const current = readFileSync(apiDocFile, 'utf8').split('\n')
    const wanted = generateApiDoc().split('\n')
    const line = wanted.findIndex((text, i) => current[i] !== text)
    const at = line < 0 ? current.length : line
    // The first line that differs, not two 1,500-line texts.
    expect(current[at], `docs/api.md is stale from line ${at + 1}: run \`npm run docs:api\``).toBe(wanted[at])
    expect(current.length).toBe(wanted.length)
  })

  it('has a section for every call of the contract', () => {
    const doc = generateApiDoc()
    for (const [name, e] of Object.entries(endpoints)) expect(doc).toContain(`### ${name} — ${e.title}\n\n\`${e.method} /api/v1${e.path}\``)
  })

  it('changes when a limit of the contract changes', () => {
    const changed: Record<string, Endpoint> = {
      ...endpoints,
      'user.login': {
        ...endpoints['user.login'],
        input: z.object({ username: z.string().min(1).max(65), password: z.string().min(1).max(128) }),
      },
    }
    expect(renderApiDoc(templates, endpoints)).toContain('| `username` | `string` | yes | 1–64 characters |')
    expect(renderApiDoc(templates, changed)).toContain('| `username` | `string` | yes | 1–65 characters |')
  })

  it('refuses a note for a call or shape that does not exist', () => {
    expect(() => renderApiDoc({ ...templates, notes: '## user.logon\n\nTypo.' })).toThrow(/user\.logon/)
  })
})
