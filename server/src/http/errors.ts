/**
 * The one error handler and the not-found handler: every answer, good or bad, is the envelope
 * `{ code, msg, data }` with the HTTP status equal to `code`. 5xx details go to the log only.
 */
import { STATUS_CODES, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { messages } from '@shared/messages'
import { AppError } from '../errors'
import { failure } from './envelope'
import { diskFullMessage, isDiskFull } from './storage-trouble'

const unsupportedMediaType = '请求体必须是 JSON（Content-Type: application/json）'
const badRequestGeneric = '请求不正确'
export const requestErrorMessages = {
  badUrl: '请求地址不正确（编码有误）',
  paramTooLong: '请求地址中的参数过长',
  malformed: '请求格式不正确（不是合法的 HTTP 请求）',
  headersTooLarge: '请求头过大',
  timeout: '请求发送超时',
  closing: '服务器正在停止，请稍后再试',
  missingHost: '请求缺少 Host 请求头',
} as const

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
      // The API's codes (docs/api.md "Conventions") have no 413/415: a body we cannot take is invalid input (400).
      return reply.code(400).send(failure(400, fastifyClientErrors[fastifyCode]))
    }
    if (status >= 400 && status < 500) {
      request.log.info({ err: error }, 'client error')
      return reply.code(400).send(failure(400, badRequestGeneric))
    }
    if (isDiskFull(error)) {
      app.services.storage.markFull(app.services.clock())
      request.log.error({ err: error }, 'request failed: the disk under the database is full')
      return reply.code(500).send(failure(500, diskFullMessage))
    }
    request.log.error({ err: error }, 'request failed')
    return reply.code(500).send(failure(500, messages.serverError))
  })

  app.setNotFoundHandler((_request, reply) => reply.code(404).send(failure(404, messages.endpointNotFound)))
}

/**
 * Requests that reach a stopping server (pipelined, or on a busy keep-alive connection) are refused
 * with 503 in the envelope — Fastify's own return503OnClosing answers in English, outside it.
 */
export function refuseWhileClosing(app: FastifyInstance): void {
  let closing = false
  app.addHook('preClose', async () => {
    closing = true
  })
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return
    reply.header('connection', 'close')
    return reply.code(503).send(failure(503, requestErrorMessages.closing))
  })
}

/**
 * HTTP/1.1 requires a Host header (RFC 9112). Node's own check answers a bare 400 outside the
 * envelope, so the server turns it off (`http.requireHostHeader: false`) and refuses here instead.
 */
export function requireHostHeader(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (request.raw.httpVersion !== '1.1' || request.headers.host !== undefined) return
    return reply
      .code(400)
      .header('cache-control', 'no-store')
      .header('connection', 'close')
      .send(failure(400, requestErrorMessages.missingHost))
  })
}

/** Errors Fastify raises before routing (Fastify's `frameworkErrors` option): the envelope too. */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const msg =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? requestErrorMessages.paramTooLong
      : error.code === 'FST_ERR_BAD_URL'
        ? requestErrorMessages.badUrl
        : badRequestGeneric
  void reply.code(400).header('cache-control', 'no-store').send(failure(400, msg))
}

/**
 * Requests Node's HTTP parser refuses (malformed, headers too large, too slow): there is no request
 * object, so the answer is written to the socket — still the envelope (Fastify's `clientErrorHandler`).
 * Bytes after a complete request (a body longer than its Content-Length) are refused as a second
 * request while the first may still be running: its answer goes out first, then the refusal — the
 * first request ran (e.g. 立即同步), so its answer must not be lost.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const [status, msg] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, requestErrorMessages.timeout]
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, requestErrorMessages.headersTooLarge]
        : [400, requestErrorMessages.malformed]
  const refuse = () => {
    if (socket.destroyed) return
    if (socket.writable) {
      const body = JSON.stringify(failure(status, msg))
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      )
    }
    socket.destroy(error)
  }
  // Node keeps the answer being written on this connection here (undocumented, but what its own default handler checks).
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage
  // The error is about the answer's own request when that one is not whole yet (a body cut short): refuse now.
  if (!inFlight || inFlight.writableFinished || !inFlight.req.complete) return refuse()
  inFlight.once('finish', refuse)
  inFlight.once('close', refuse)
}
