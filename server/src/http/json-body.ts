/**
 * JSON bodies: Fastify's own parser (it refuses `__proto__`/`constructor` poisoning), except that
 * - an empty body counts as "no body". Clients send `Content-Type: application/json` with nothing
 *   for calls without a payload (e.g. logout), and that is not malformed JSON;
 * - a body must be UTF-8 (api.md): bytes that are not (a script sending GBK, `charset=gbk`) are refused, where decoding
 *   them turned each into U+FFFD and stored a remark of 「备注」 as 「��ע」, answered 200.
 * Fastify's text/plain parser is removed: a body of text reached the schema as a string (「请求：应为对象」) instead of
 * being told, like any other body that is not JSON, to be JSON.
 */
import type { FastifyInstance } from 'fastify'
import { badRequest } from '../errors'

const NOT_UTF8 = '请求内容不是 UTF-8 编码：请以 UTF-8 发送 JSON'
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false })

/** The charset a Content-Type names, if any (`application/json; charset=gbk` → gbk). */
const charsetOf = (contentType: string | undefined) => /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase()

export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser(['application/json', 'text/plain'])
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const charset = charsetOf(request.headers['content-type'])
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') return done(badRequest(NOT_UTF8), undefined)
    let text: string
    try {
      text = utf8.decode(body as Buffer)
    } catch {
      return done(badRequest(NOT_UTF8), undefined)
    }
    if (text.trim() === '') return done(null, undefined)
    parseJson(request, text, done)
  })
}
