import type { Envelope } from '@shared/endpoints'

export const SUCCESS_MSG = 'ok'

export function success<T>(data: T): Envelope<T> {
  return { code: 200, msg: SUCCESS_MSG, data }
}

export function failure(code: number, msg: string): Envelope<null> {
  return { code, msg, data: null }
}

/**
 * An answer already serialized (e.g. cached figures kept as their JSON text): the endpoint layer
 * sends it inside the envelope as it is, without a JSON.stringify per call, and checks it like any
 * answer when checkOutput is on.
 */
export class JsonText {
  private bytes: Buffer | null = null

  constructor(readonly text: string) {}

  /**
   * The whole success envelope around it, as the UTF-8 bytes sent: built on the first answer and
   * kept, so a cached answer sent again and again is neither concatenated nor encoded again.
   */
  envelope(): Buffer {
    this.bytes ??= Buffer.from(`{"code":200,"msg":${JSON.stringify(SUCCESS_MSG)},"data":${this.text}}`)
    return this.bytes
  }
}
