/**
 * What the benches share about their output: the saved results per bench and dialect (bench/results,
 * in git: BENCHMARKS.md is rendered from them, so any clone renders the same file, whichever dialect
 * it runs) and their own section of BENCHMARKS.md, between `<!-- name:begin -->` and
 * `<!-- name:end -->` (the rest of the file is left as it is).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { isPostgresUrl } from '../server/src/config'
import type { Dialect } from './dataset'

const dialects: readonly Dialect[] = ['sqlite', 'postgres']
const benchmarksFile = join(import.meta.dirname, '..', 'BENCHMARKS.md')

const resultsDir = join(import.meta.dirname, 'results')

/** `bench/results/<bench>-<dialect>.json` */
export function resultsFile(bench: string, dialect: Dialect): string {
  mkdirSync(resultsDir, { recursive: true })
  return join(resultsDir, `${bench}-${dialect}.json`)
}

/** The saved results of a bench, SQLite first, for the dialects that have run. */
export function savedResults<T>(bench: string): { dialect: Dialect; result: T }[] {
  return dialects
    .filter((dialect) => existsSync(resultsFile(bench, dialect)))
    .map((dialect) => ({ dialect, result: JSON.parse(readFileSync(resultsFile(bench, dialect), 'utf8')) as T }))
}

/**
 * Every saved run of a bench that keeps comparison points (`<bench>-<dialect>[-<label>].json`): the
 * labelled ones (oldest first), then the latest unlabelled run.
 */
/** What every saved run of a bench against a server process records about itself (bench:load, bench:heavy). */
export interface ServerRunMeta {
  dialect: Dialect
  /** A comparison point's name (--label); null for the latest run. */
  label: string | null
  note: string | null
  date: string
  /** The commit whose server ran. */
  commit: string | null
  /** DEMO_SIZE of the data set. */
  size: string
  connections: number
  cores: number
  /** 1-minute load average before and after. */
  load: [number, number]
}

export function labelledRuns<T extends { label: string | null; date: string }>(bench: string, dialect: Dialect): T[] {
  if (!existsSync(resultsDir)) return []
  const runs = readdirSync(resultsDir)
    .filter((f) => f.startsWith(`${bench}-${dialect}`) && f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(resultsDir, f), 'utf8')) as T)
  return [...runs.filter((r) => r.label !== null).sort((a, b) => a.date.localeCompare(b.date)), ...runs.filter((r) => r.label === null)]
}

/** Replaces the bench's marked section of BENCHMARKS.md (or appends it); `section` includes the markers. */
export function writeSection(marker: string, section: string): void {
  const begin = `<!-- ${marker}:begin -->`
  const end = `<!-- ${marker}:end -->`
  const current = existsSync(benchmarksFile) ? readFileSync(benchmarksFile, 'utf8') : '# Benchmarks\n'
  const start = current.indexOf(begin)
  const stop = current.indexOf(end)
  const next =
    start >= 0 && stop > start
      ? current.slice(0, start) + section + current.slice(stop + end.length)
      : `${current.trimEnd()}\n\n${section}\n`
  writeFileSync(benchmarksFile, next)
}

/** The dialects a bench runs: `--only`'s, else SQLite plus PostgreSQL when DATABASE_URL points at one. */
export function benchDialects(only: string | undefined): Dialect[] {
  const postgres = Boolean(process.env.DATABASE_URL && isPostgresUrl(process.env.DATABASE_URL))
  if (only === 'postgres' && !postgres) throw new Error('--only postgres needs DATABASE_URL')
  if (only !== undefined && only !== 'sqlite' && only !== 'postgres') throw new Error(`--only: sqlite or postgres, not ${only}`)
  return only ? [only] : postgres ? ['sqlite', 'postgres'] : ['sqlite']
}

/** Keeps a run's results: bench/results/<bench>-<dialect>[-<label>].json. */
export function saveResults(bench: string, dialect: Dialect, report: unknown, label?: string): void {
  const file = resultsFile(bench, dialect)
  writeFileSync(label ? file.replace(/\.json$/, `-${label}.json`) : file, JSON.stringify(report, null, 2))
}
