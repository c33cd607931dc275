import type { Envelope } from '@shared/endpoints'

export const SUCCESS_MSG = 'ok'

export function success<T>(data: T): Envelope<T> {
  return { code: 200, msg: SUCCESS_MSG, data }
}

export function failure(code: number, msg: string): Envelope<null> {
  return { code, msg, data: null }
}
