/** Errors a request can end with. Thrown anywhere in a handler; the error handler turns them into the envelope. */
import { messages } from '@shared/messages'

/** A failure the caller should see: `code` becomes the HTTP status and the envelope's code, `msg` is shown as is. */
export class AppError extends Error {
  override name = 'AppError'

  constructor(
    readonly code: number,
    readonly msg: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(msg)
  }
}

export const badRequest = (msg: string) => new AppError(400, msg)
export const notLoggedIn = () => new AppError(401, messages.notLoggedIn)
export const forbidden = (msg: string = messages.forbidden) => new AppError(403, msg)
export const notFound = (msg: string = messages.notFound) => new AppError(404, msg)
export const conflict = (msg: string) => new AppError(409, msg)
