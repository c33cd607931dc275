/**
 * What the server and a wage worker (worker.ts) say to each other: the jobs and their answers
 * (errors cross as util/job-thread.ts carries them).
 */
import type { WagePreviewEntry } from '@shared/entities'
import type { RuleBody, Rules } from '../rules/rules'
import type { ThreadFile } from '../util/job-thread'
import type { MemberWage } from './formula'
import type { ScanPart } from './parallel-scan'

export type RunMember = MemberWage & { username: string }

export type WageJob =
  | { kind: 'preview'; period: string; now: number; userId?: number }
  | ({ kind: 'computeAndSave' } & ComputeArgs)
  | { kind: 'members'; period: string; rules: Rules; body: RuleBody }
  /** A helper's half of a preview's or compute's scan (parallel-scan.ts), started by the wage thread. */
  | { kind: 'scanPart'; period: string; first: number; step: number; channel: SharedArrayBuffer }

/** A job as the thread is sent it: where (the file and its write turns) and the job. */
export interface WageThreadJob extends ThreadFile {
  job: WageJob
}

/** What POST /wages/compute is asked (engine.ts computeAndSave) and what it answers. */
export interface ComputeArgs {
  period: string
  now: number
  operator: { id: number; username: string }
  ip: string
}

export interface ComputeOutcome {
  ruleVersion: number
  saved: number
  keptPaid: number
}

export interface PreviewAnswer {
  ruleVersion: number
  list: WagePreviewEntry[]
}

/** A compute's result before it is written: members, and each member's item set (stored JSON). */
export interface ComputedPeriod {
  ruleVersion: number
  members: RunMember[]
  itemSets: Iterable<{ userId: number; items: string }>
}

export interface JobAnswers {
  preview: PreviewAnswer
  computeAndSave: ComputeOutcome
  members: RunMember[]
  scanPart: ScanPart | null
}
