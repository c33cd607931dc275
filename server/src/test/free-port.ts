/** A TCP port free on loopback right now, for a server a test or bench starts in a child process. */
import { createServer } from 'node:net'

export async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((ok, fail) => {
    probe.once('error', fail)
    probe.listen(0, '127.0.0.1', ok)
  })
  const { port } = probe.address() as { port: number }
  await new Promise<void>((ok) => probe.close(() => ok()))
  return port
}
