/** Every route area. A new area is a file in this folder and one line here. */
import type { FastifyInstance } from 'fastify'
import { adminUserRoutes } from './admin-users'
import { configRoutes } from './config'
import { healthRoutes } from './health'
import { ingestRoutes } from './ingest'
import { operationLogRoutes } from './operation-log'
import { payoutRoutes } from './payout'
import { siteRoutes } from './site'
import { statisticsRoutes } from './statistics'
import { syncRoutes } from './sync'
import { taskRoutes } from './task'
import { torrentRoutes } from './torrent'
import { userRoutes } from './user'
import { wageRoutes } from './wages'

export function registerRoutes(app: FastifyInstance): void {
  healthRoutes(app)
  userRoutes(app)
  torrentRoutes(app)
  statisticsRoutes(app)
  wageRoutes(app)
  payoutRoutes(app)
  adminUserRoutes(app)
  configRoutes(app)
  taskRoutes(app)
  operationLogRoutes(app)
  ingestRoutes(app)
  syncRoutes(app)
  siteRoutes(app)
}
