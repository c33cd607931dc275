/** /sync: what the sync job is doing (GET /sync/status) and "sync now" (POST /sync/run, jobs/sync-status.ts). */
import type { FastifyInstance } from 'fastify'
import { registerEndpoint } from '../http/endpoint'
import { readSyncStatus, startSync } from '../jobs/sync-status'

export function syncRoutes(app: FastifyInstance): void {
  // GET /sync/status — source, running (this process or a live lease), progress, last runs, rows.
  registerEndpoint(app, 'sync.status', (_input, ctx) => readSyncStatus(ctx))

  // POST /sync/run — starts one now in the background; answers the status (running).
  registerEndpoint(app, 'sync.run', (_input, ctx) => startSync(ctx))
}
