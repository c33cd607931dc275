/**
 * `npm run server`: configuration from the environment, then listen. SIGINT/SIGTERM close the
 * server gracefully (running requests finish, the database is closed); a second signal exits at once.
 */
import { ConfigError, loadConfig } from './config'
import { startServer } from './server'

async function main(): Promise<void> {
  let config
  try {
    config = loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`配置错误 (configuration error): ${error.message}\n`)
      process.exit(1)
    }
    throw error
  }

  const server = await startServer({ config, logger: true })
  const { log } = server.app
  log.info(
    { url: server.apiBase, database: config.database.kind, dataDir: config.dataDir, source: config.source },
    `listening on ${server.apiBase}`,
  )

  let stopping = false
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      log.warn({ signal }, 'second signal, exiting now')
      process.exit(1)
    }
    stopping = true
    log.info({ signal }, 'shutting down')
    server.close().then(
      () => {
        log.info('stopped')
        process.exit(0)
      },
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed')
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

main().catch((error: unknown) => {
  process.stderr.write(
    `服务器启动失败 (server failed to start): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  )
  process.exit(1)
})
