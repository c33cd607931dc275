import { readFileSync } from 'node:fs'

let cached: string | undefined

/** The product version: the root package.json's `version` (read once). */
export function productVersion(): string {
  if (cached === undefined) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown }
      cached = typeof pkg.version === 'string' ? pkg.version : '0.0.0'
    } catch {
      cached = '0.0.0'
    }
  }
  return cached
}
