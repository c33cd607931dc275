/** The health check: the server answers, the database answers a round trip, and writes have not been failing on a full disk. */
import type { FastifyBaseLogger } from 'fastify'
import { sql } from 'kysely'
import { AppError } from '../errors'
import type { AppServices } from '../services'
import { diskFullMessage } from './storage-trouble'

export async function checkHealth(
  services: Pick<AppServices, 'database' | 'storage' | 'version'>,
  now: number,
  log: FastifyBaseLogger,
): Promise<{ status: 'ok'; db: 'ok'; version: string }> {
  try {
    await sql`select 1`.execute(services.database.db)
  } catch (error) {
    log.error({ err: error }, 'database health check failed')
    throw new AppError(500, '数据库不可用')
  }
  // A full disk still answers reads: report the writes that failed on it.
  if (services.storage.recentFull(now) !== null) throw new AppError(500, `数据库不可写：${diskFullMessage}`)
  return { status: 'ok', db: 'ok', version: services.version }
}
