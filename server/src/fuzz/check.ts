/**
 * Sends a generated request through the real app and judges the answer: never a 5xx, always the
 * `{code,msg,data}` envelope, a Chinese message on a rejection, and a rejected call changes nothing.
 */
import { WagePayment } from '@shared/enums'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { endpoints, TOKEN_HEADER } from '@shared/endpoints'
import type { AppDatabase } from '../db/database'
import type { FuzzRequest } from './requests'

const CJK = /[\u4e00-\u9fff]/

/**
 * What a rejected call must leave as it was. Not login_attempts: counting a rejected login is the
 * limiter's job. Not derive_queue and sync_state: a sync may run between two calls.
 */
const WATCHED = [
  'select count(*) as n from users',
  `select count(*) as n from users where role = 'admin'`,
  'select count(*) as n from sessions',
  'select count(*) as n from operation_log',
  'select count(*) as n from assignments',
  'select count(*) as n from seed_type_overrides',
  'select count(*) as n from rule_versions',
  'select count(*) as n from wage_records',
  `select count(*) as n from wage_records where payment = ${WagePayment.Paid}`,
  'select count(*) as n from payout_ledger',
]

export async function stateFingerprint(database: AppDatabase): Promise<string> {
  const counts: number[] = []
  for (const query of WATCHED) counts.push(Number((await sql<{ n: number }>`${sql.raw(query)}`.execute(database.db)).rows[0].n))
  return counts.join(',')
}

export interface Verdict {
  status: number
  /** Why the answer is wrong; null when it is right. */
  fault: string | null
}

export async function sendAndJudge(
  app: FastifyInstance,
  database: AppDatabase,
  request: FuzzRequest,
  adminToken: () => Promise<string>,
): Promise<Verdict> {
  const headers = { ...request.headers }
  if (request.asAdmin) headers[TOKEN_HEADER] = await adminToken()
  const before = await stateFingerprint(database)
  const answer = await app.inject({
    method: request.method,
    url: request.url,
    headers,
    payload: request.payload,
    remoteAddress: request.remoteAddress,
  })
  const status = answer.statusCode
  if (status >= 500) return { status, fault: `answered ${status}: ${answer.body.slice(0, 300)}` }
  // A download answers the file itself.
  if ('download' in endpoints[request.name] && status === 200) return { status, fault: null }
  let body: unknown
  try {
    body = JSON.parse(answer.body)
  } catch {
    return { status, fault: `not JSON: ${answer.body.slice(0, 200)}` }
  }
  const envelope = body as { code?: unknown; msg?: unknown; data?: unknown }
  if (
    typeof envelope !== 'object' ||
    envelope === null ||
    typeof envelope.code !== 'number' ||
    typeof envelope.msg !== 'string' ||
    !('data' in envelope)
  ) {
    return { status, fault: `not the envelope: ${answer.body.slice(0, 200)}` }
  }
  if (status !== 200) {
    if (!CJK.test(envelope.msg)) return { status, fault: `message not in Chinese: ${envelope.msg}` }
    const after = await stateFingerprint(database)
    if (after !== before) return { status, fault: `a rejected call changed the data (${before} → ${after}): ${envelope.msg}` }
  }
  return { status, fault: null }
}

/** One line of what was tried, for the script's output and a failing test's message. */
export function describeRequest(request: FuzzRequest): string {
  const payload =
    request.payload === undefined
      ? ''
      : ` ${request.payload.length > 160 ? `${request.payload.slice(0, 160)}… (${request.payload.length} chars)` : request.payload}`
  const url = request.url.length > 200 ? `${request.url.slice(0, 200)}… (${request.url.length} chars)` : request.url
  return `${request.name}: ${request.method} ${url}${request.asAdmin ? ' [admin]' : ''} ${JSON.stringify(request.headers).slice(0, 120)}${payload}`
}
