/**
 * JSON bodies: Fastify's own parser (it refuses `__proto__`/`constructor` poisoning), except that
 * an empty body counts as "no body". Clients send `Content-Type: application/json` with nothing
 * for calls without a payload (e.g. logout), and that is not malformed JSON. Fastify's text/plain
 * parser is removed: a body of text reached the schema as a string (「请求：应为对象」) instead of being
 * told, like any other body that is not JSON, to be JSON.
 */
import type { FastifyInstance } from 'fastify'

export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser(['application/json', 'text/plain'])
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8')
    if (text.trim() === '') return done(null, undefined)
    parseJson(request, text, done)
  })
}
