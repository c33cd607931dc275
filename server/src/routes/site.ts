/**
 * /site: lookups into the synced mirror of the site for the admin's forms — site users by name or
 * uid (the member form), team and tag names (the official-torrent rules).
 */
import type { FastifyInstance } from 'fastify'
import { registerEndpoint } from '../http/endpoint'
import { siteOptions } from '../rules/site-options'
import { searchSiteUsers } from '../users/site-user-search'

export function siteRoutes(app: FastifyInstance): void {
  // GET /site/users?keyword= — up to 20 site users by uid or name, with the member tied to each.
  registerEndpoint(app, 'site.users', (input, ctx) => searchSiteUsers(ctx.db, ctx.services.database.dialect, input.keyword))

  // GET /site/options — the site's team and tag names (official-torrent rules).
  registerEndpoint(app, 'site.options', (_input, ctx) => siteOptions(ctx.db))
}
