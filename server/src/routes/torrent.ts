import type { FastifyInstance } from 'fastify'
import { registerEndpoint } from '../http/endpoint'
import { DerivedCache } from '../paging/derived-cache'
import { currentRules } from '../rules/rules'
import { pageTorrents } from '../seeding/torrents'
import { setSeedType } from '../torrents/set-type'

export function torrentRoutes(app: FastifyInstance): void {
  const counts = new DerivedCache()
  // POST /torrent/page — torrents with seed type, keepers and labels.
  registerEndpoint(app, 'torrent.page', async (input, ctx) => {
    const rules = await currentRules(ctx.db)
    return pageTorrents(ctx.db, ctx.services.database.dialect, counts, input, rules.targetKeepers)
  })

  // POST /torrent/set-type — manual seed type (null: back to the rules), then re-label.
  registerEndpoint(app, 'torrent.setType', (input, ctx) => setSeedType(ctx, input))
}
