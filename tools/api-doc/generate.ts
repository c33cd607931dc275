/**
 * `npm run docs:api`: writes docs/api.md from the contract and the templates in this folder.
 * `npm run docs:api -- --check`: exits 1 when docs/api.md is not what it would write (api-doc.test.ts
 * checks the same inside `npm test`).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { renderApiDoc } from './render'

const here = import.meta.dirname
export const apiDocFile = resolve(here, '../../docs/api.md')

/** docs/api.md as the contract and the templates say it should read. */
export function generateApiDoc(): string {
  const read = (name: string) => readFileSync(resolve(here, name), 'utf8')
  return renderApiDoc({ header: read('header.md'), notes: read('notes.md'), footer: read('footer.md') })
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = generateApiDoc()
  if (process.argv.includes('--check')) {
    const current = readFileSync(apiDocFile, 'utf8')
    if (current !== text) {
      console.error('docs/api.md is stale: run `npm run docs:api`')
      process.exit(1)
    }
    console.log('docs/api.md is current')
  } else {
    writeFileSync(apiDocFile, text)
    console.log(`wrote ${apiDocFile}`)
  }
}
