/**
 * What the server and a wage worker (worker.ts) say to each other: the jobs and their answers
 * (errors cross as util/job-thread.ts carries them).
 */
import type { WagePreviewEntry } from '@shared/entities'
import type { RuleBody, Rules } from '../rules/rules'
import type { MemberWage } from './formula'

export type RunMember = MemberWage & { username: string }

export type WageJob =
  | { kind: 'preview'; period: string; now: number; userId?: number }
  | { kind: 'compute'; period: string }
  | { kind: 'members'; period: string; rules: Rules; body: RuleBody }

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

/**
 * Item sets as three transferable arrays instead of thousands of strings (tens of MB at a large
 * month): the worker encodes them, the server decodes one set at a time as it inserts it.
 */
export interface PackedItemSets {
  userIds: Float64Array
  /** Byte offset where each set's JSON ends in `json`. */
  ends: Float64Array
  json: Uint8Array
}

export interface JobAnswers {
  preview: PreviewAnswer
  compute: { ruleVersion: number; members: RunMember[]; itemSets: PackedItemSets }
  members: RunMember[]
}

export function packItemSets(sets: Iterable<{ userId: number; items: string }>): PackedItemSets {
  const encoder = new TextEncoder()
  const userIds: number[] = []
  const chunks: Uint8Array[] = []
  let total = 0
  for (const set of sets) {
    const bytes = encoder.encode(set.items)
    userIds.push(set.userId)
    chunks.push(bytes)
    total += bytes.length
  }
  const json = new Uint8Array(total)
  const ends = new Float64Array(chunks.length)
  let at = 0
  chunks.forEach((bytes, i) => {
    json.set(bytes, at)
    at += bytes.length
    ends[i] = at
  })
  return { userIds: Float64Array.from(userIds), ends, json }
}

export function* unpackItemSets(packed: PackedItemSets): Generator<{ userId: number; items: string }> {
  const decoder = new TextDecoder()
  let start = 0
  for (let i = 0; i < packed.userIds.length; i++) {
    const end = packed.ends[i]!
    yield { userId: packed.userIds[i]!, items: decoder.decode(packed.json.subarray(start, end)) }
    start = end
  }
}
