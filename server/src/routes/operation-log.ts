/** /operation-log/page */
import type { FastifyInstance } from 'fastify'
import { badRequest } from '../errors'
import { registerEndpoint } from '../http/endpoint'
import { pageOperationLog } from '../operation-log/page'

export function operationLogRoutes(app: FastifyInstance): void {
  registerEndpoint(app, 'operationLog.page', (input, ctx) => {
    if (input.from !== undefined && input.to !== undefined && Date.parse(input.from) > Date.parse(input.to)) {
      throw badRequest('开始时间：不能晚于结束时间')
    }
    return pageOperationLog(ctx.db, input)
  })
}
