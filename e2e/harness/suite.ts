/** The API server and the app a browser suite runs against, started in its beforeAll and stopped in its afterAll. */
import { startApiServer, type ApiServerOptions, type RunningServer } from './api-server'
import { openApp, type OpenApp } from './app'

/** Where the app points before a test types the real address: nothing listens there (port 9, discard). */
export const UNREACHABLE_API = 'http://127.0.0.1:9/api/v1'

export interface SuiteOptions extends ApiServerOptions {
  /** The app's preset server address: the started server's own, or (default) one nothing answers. */
  presetAddress?: 'server' | 'unreachable'
}

export async function startSuite(options: SuiteOptions = {}): Promise<{ server: RunningServer; app: OpenApp }> {
  const server = await startApiServer(options)
  try {
    const app = await openApp({ defaultServerAddress: options.presetAddress === 'server' ? server.apiBase : UNREACHABLE_API })
    return { server, app }
  } catch (error) {
    await server.stop() // the suite never learns of it: it would outlive the run
    throw error
  }
}

/**
 * Closes whatever of the two was started (a beforeAll that failed half-way leaves one of them). The
 * server logs at LOG_LEVEL=warn: whatever it wrote is a warning or an error, shown here (its end) so
 * that a CI run's failure can be read from the CI log alone.
 */
export async function stopSuite(server: RunningServer | undefined, app: OpenApp | undefined): Promise<void> {
  await app?.close()
  await server?.stop()
  const log = server?.output().trim()
  if (log) process.stdout.write(`[e2e] the API server's warnings and errors:\n${log.slice(-8_000)}\n`)
}
