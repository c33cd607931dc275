/**
 * The electronegativity gate: scans the app's sources for Electron security misconfigurations and
 * fails on any finding of MEDIUM or above that tools/electronegativity-allow.json does not list
 * with a reason. The tool lives in tools/electronegativity with its own node_modules (inside the
 * project it picks up our TypeScript and crashes) and always exits 0, so the gate reads its CSV.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { parse } from 'csv-parse/sync'
import { describe, expect, it } from 'vitest'

const root = resolve(import.meta.dirname, '../..')
const toolDir = join(root, 'tools/electronegativity')
const bin = join(toolDir, 'node_modules/.bin/electronegativity')
const electronVersion = JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')).version as string
const gated = new Set(['MEDIUM', 'HIGH', 'CRITICAL'])

interface Finding {
  issue: string
  severity: string
  confidence: string
  filename: string
  location: string
  description: string
}

function installTool(): void {
  if (existsSync(bin)) return
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--prefix', toolDir], { stdio: 'inherit' })
}

function scan(excluded: readonly string[]): Finding[] {
  const out = join(mkdtempSync(join(tmpdir(), 'electronegativity-')), 'findings.csv')
  const args = ['-i', join(root, 'src'), '-e', electronVersion, '-s', 'MEDIUM', '-o', out]
  // The CLI names checks by class (CSPGlobalCheck → cspglobalcheck); reports use ids (CSP_GLOBAL_CHECK).
  if (excluded.length) args.push('-x', excluded.map((id) => id.replace(/_/g, '').toLowerCase()).join(','))
  execFileSync(bin, args, { stdio: 'ignore', timeout: 240_000 })
  const rows = parse(readFileSync(out, 'utf8'), { columns: true, trim: true, skip_empty_lines: true }) as Record<string, string>[]
  return rows.map((row) => ({
    issue: row.issue!,
    severity: row.severity!,
    confidence: row.confidence!,
    filename: relative(root, row.filename!),
    location: row.location!,
    description: row.description!,
  }))
}

describe('electronegativity gate', () => {
  const reviewed = JSON.parse(readFileSync(join(root, 'tools/electronegativity-allow.json'), 'utf8')) as {
    allow: { check: string; file: string; reason: string }[]
    excludedChecks?: { check: string; reason: string }[]
  }
  const allow = reviewed.allow
  const excluded = reviewed.excludedChecks ?? []

  it('lists a reason for every allowed finding and every excluded check', () => {
    for (const entry of [...allow, ...excluded]) expect(entry.reason.length, `${entry.check} needs a reason`).toBeGreaterThan(30)
  })

  it(`finds nothing of MEDIUM or above outside the allow-list (Electron ${electronVersion})`, () => {
    installTool()
    const findings = scan(excluded.map((entry) => entry.check))
    for (const finding of findings) expect(finding.issue, 'a row the gate cannot read').toMatch(/^[A-Z_]+$/)
    const blocking = findings.filter(
      (finding) => gated.has(finding.severity) && !allow.some((entry) => entry.check === finding.issue && entry.file === finding.filename),
    )
    expect(blocking.map((f) => `${f.severity} ${f.issue} ${f.filename}:${f.location} — ${f.description}`)).toEqual([])
  })
})
