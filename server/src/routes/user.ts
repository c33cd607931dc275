import type { FastifyInstance } from 'fastify'
import { TOKEN_HEADER } from '@shared/endpoints'
import { login } from '../auth/login'
import { logout } from '../auth/logout'
import { toIso } from '../db/time'
import { registerEndpoint } from '../http/endpoint'
import { forbidden, notFound } from '../errors'
import { DerivedCache } from '../paging/derived-cache'
import { pageSeedRecords } from '../seeding/seed-records'
import { pageAdmins, pageMembers, userDetail, userOptions } from '../users/pages'

export function userRoutes(app: FastifyInstance): void {
  // POST /user/login — the token is the answer's data and the Access-Token header.
  registerEndpoint(app, 'user.login', async (input, ctx) => {
    const token = await login(ctx.services, input, { ip: ctx.ip, userAgent: ctx.userAgent }, ctx.now)
    ctx.reply.header(TOKEN_HEADER, token)
    return token
  })

  // POST /user/logout — ends the session the call was made with.
  registerEndpoint(app, 'user.logout', async (_input, ctx) => {
    await logout(ctx)
    return null
  })

  // GET /user/login-info — the caller, as of this request.
  registerEndpoint(app, 'user.loginInfo', (_input, { user }) => ({
    id: user.id,
    username: user.username,
    role: user.role,
    status: user.status,
    siteUid: user.siteUid,
    lastLoginAt: toIso(user.lastLoginAt),
  }))

  // GET /user/list — every member and admin who is not deleted (for selects).
  registerEndpoint(app, 'user.list', (_input, ctx) => userOptions(ctx.db))

  // GET /user/{id} — admins: anyone; members: themselves only.
  registerEndpoint(app, 'user.detail', async (input, ctx) => {
    if (ctx.user.role !== 'admin' && input.id !== ctx.user.id) throw forbidden()
    const detail = await userDetail(ctx.db, input.id)
    if (!detail) throw notFound('用户不存在')
    return detail
  })

  // POST /user/page-admin
  registerEndpoint(app, 'user.pageAdmin', (input, ctx) => pageAdmins(ctx.db, ctx.services.database.dialect, input))

  // POST /user/page-normal
  registerEndpoint(app, 'user.pageNormal', (input, ctx) => pageMembers(ctx.db, ctx.services.database.dialect, input))

  // POST /user/page-seed — a member's userId is forced to their own, whatever they sent.
  const counts = new DerivedCache()
  registerEndpoint(app, 'user.pageSeed', (input, ctx) => {
    const userId = ctx.user.role === 'admin' ? input.userId : ctx.user.id
    return pageSeedRecords(ctx.db, ctx.services.database.dialect, counts, { ...input, userId })
  })
}
