/**
 * The one error handler and the not-found handler: every answer, good or bad, is the envelope
 * `{ code, msg, data }` with the HTTP status equal to `code`. 5xx details go to the log only.
 */
import type { FastifyError, FastifyInstance } from 'fastify'
import { messages } from '@shared/messages'
import { AppError } from '../errors'
import { failure } from './envelope'

const unsupportedMediaType = '请求体必须是 JSON（Content-Type: application/json）'
const badRequestGeneric = '请求不正确'

/** Fastify's own client errors, by code, mapped to the Chinese text the caller sees. */
const fastifyClientErrors: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: messages.invalidJson,
  FST_ERR_CTP_EMPTY_JSON_BODY: messages.invalidJson,
  FST_ERR_CTP_BODY_TOO_LARGE: messages.bodyTooLarge,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: unsupportedMediaType,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: badRequestGeneric,
}

export function registerErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (error instanceof AppError) {
      return reply.code(error.code).headers(error.headers).send(failure(error.code, error.msg))
    }
    const fastifyCode = 'code' in error && typeof error.code === 'string' ? error.code : undefined
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500
    if (fastifyCode && fastifyCode in fastifyClientErrors) {
      // api.md has no 413/415: a body we cannot take is invalid input (400).
      return reply.code(400).send(failure(400, fastifyClientErrors[fastifyCode]))
    }
    if (status >= 400 && status < 500) {
      request.log.info({ err: error }, 'client error')
      return reply.code(400).send(failure(400, badRequestGeneric))
    }
    request.log.error({ err: error }, 'request failed')
    return reply.code(500).send(failure(500, messages.serverError))
  })

  app.setNotFoundHandler((_request, reply) => reply.code(404).send(failure(404, messages.endpointNotFound)))
}
