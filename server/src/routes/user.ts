import type { FastifyInstance } from 'fastify'
import { DEVICE_KEY_HEADER, TOKEN_HEADER } from '@shared/endpoints'
import { login } from '../auth/login'
import { logout } from '../auth/logout'
import { toIso } from '../db/time'
import { registerEndpoint } from '../http/endpoint'
import { forbidden, notFound } from '../errors'
import { DerivedCache } from '../paging/derived-cache'
import { pageSeedRecords } from '../seeding/seed-records'
import { pageAdmins, pageMembers, userDetail, userOptions } from '../users/pages'

export function userRoutes(app: FastifyInstance): void {
  // POST /user/login — the token is the answer's data and the Access-Token header; the device's new key
  // is the Device-Key header (the one the request sent, if any, exempts it from the account-wide lock).
  registerEndpoint(app, 'user.login', async (input, ctx) => {
    const sentKey = ctx.request.headers[DEVICE_KEY_HEADER.toLowerCase()]
    const meta = { ip: ctx.ip, userAgent: ctx.userAgent }
    const { token, deviceKey } = await login(ctx.services, input, meta, ctx.now, typeof sentKey === 'string' ? sentKey : undefined)
    ctx.reply.header(TOKEN_HEADER, token)
    ctx.reply.header(DEVICE_KEY_HEADER, deviceKey)
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
