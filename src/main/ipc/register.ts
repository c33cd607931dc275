/**
 * Wires the handler map to `ipcMain.handle`: every channel checks its sender first and never lets
 * an exception cross IPC (the renderer always gets a value it can show).
 */
import { ipcChannels, messages, type IpcHandlers } from '@shared/index'
import type { SenderFrame } from './sender'

export interface IpcMainLike {
  handle(channel: string, listener: (event: { senderFrame: SenderFrame | null }, ...args: unknown[]) => unknown): void
  removeHandler(channel: string): void
}

export const forbiddenSender = { ok: false as const, code: 403, msg: messages.forbidden }

export function registerIpcHandlers(
  ipcMain: IpcMainLike,
  handlers: IpcHandlers,
  isTrustedSender: (frame: SenderFrame | null) => boolean,
  log: (message: string) => void = () => {},
): () => void {
  const channels = Object.values(ipcChannels)
  for (const channel of channels) {
    const handler = handlers[channel] as (arg?: unknown) => Promise<unknown>
    ipcMain.handle(channel, async (event, arg) => {
      if (!isTrustedSender(event.senderFrame)) {
        log(`refused ${channel} from ${event.senderFrame?.url ?? 'an unknown frame'}`)
        return forbiddenSender
      }
      try {
        return await handler(arg)
      } catch (error) {
        log(`${channel} failed: ${(error as Error).stack ?? error}`)
        return { ok: false, code: 500, msg: messages.requestFailed }
      }
    })
  }
  return () => channels.forEach((channel) => ipcMain.removeHandler(channel))
}
