/**
 * POST /api/v1/ingest/snapshot — trackers that are not NexusPHP push their rows (SOURCE=ingest;
 * format in sources/ingest/schema.ts and the README). Not part of the app's contract
 * (src/shared/endpoints.ts): the desktop app never calls it, and its caller holds an ingest key,
 * not a session. Answers in the same envelope as every call.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { API_PREFIX } from '@shared/endpoints'
import { formatZodError } from '@shared/validation'
import { ingestKeyMatches } from '../auth/ingest-key'
import { AppError } from '../errors'
import { success } from '../http/envelope'
import { applySnapshot } from '../sources/ingest/ingest'
import { ingestSnapshotSchema } from '../sources/ingest/schema'

export const INGEST_KEY_HEADER = 'X-Ingest-Key'
/** Largest body accepted: ~50,000 peer rows. Bigger snapshots are pushed in several requests. */
export const INGEST_BODY_LIMIT = 16 * 1024 * 1024

/** The header exactly as sent: a key with spaces around it is another key. */
function presentedKey(request: FastifyRequest): string {
  const value = request.headers[INGEST_KEY_HEADER.toLowerCase()]
  return typeof value === 'string' ? value : ''
}

export function ingestRoutes(app: FastifyInstance): void {
  const { config } = app.services
  app.post(
    `${API_PREFIX}/ingest/snapshot`,
    {
      bodyLimit: INGEST_BODY_LIMIT,
      // The key is checked before the body is read: an unauthenticated caller cannot make us parse 16 MB.
      onRequest: async (request) => {
        if (config.source !== 'ingest') throw new AppError(403, '推送接入未启用：服务器的数据来源（SOURCE）不是 ingest')
        const key = presentedKey(request)
        if (!key || !ingestKeyMatches(key, config.ingestKeys)) throw new AppError(401, `${INGEST_KEY_HEADER} 缺失或不正确`)
      },
      errorHandler: (error, request, reply) => {
        if ('code' in error && error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
          return reply.code(400).send({ code: 400, msg: `请求体超过 ${INGEST_BODY_LIMIT / 1024 / 1024} MB 上限，请分批推送`, data: null })
        }
        throw error // the app's handler answers the rest
      },
    },
    async (request) => {
      const parsed = ingestSnapshotSchema.safeParse(request.body ?? {})
      if (!parsed.success) throw new AppError(400, formatZodError(parsed.error))
      const outcome = await applySnapshot(app.services.database.db, parsed.data, app.services.clock())
      request.log.info(
        {
          accepted: outcome.accepted,
          ignoredOlder: outcome.ignoredOlder,
          written: outcome.written,
          deleted: outcome.deleted,
          rejected: outcome.rejectedTotal,
          notes: outcome.notes,
        },
        'ingest snapshot applied',
      )
      // What changed is queued: derive it now rather than at the next scheduled sync.
      if (Object.values(outcome.written).some(Boolean) || Object.values(outcome.deleted).some(Boolean)) app.services.sync.requestRun()
      return success(outcome)
    },
  )
}
