import { isAppUrl } from '../security'

/**
 * Which frames may talk to main: only the app's own top-level page (Electron security checklist
 * item 17, "validate the sender of all IPC messages").
 */

/** The parts of Electron's WebFrameMain that the check reads. */
export interface SenderFrame {
  url: string
  parent: unknown
}

/**
 * @param appUrl the URL the window loads: `app://bundle/index.html` when packaged, the dev server
 *   (`http://localhost:5173/`) in development.
 */
export function createSenderCheck(appUrl: string): (frame: SenderFrame | null | undefined) => boolean {
  return (frame) => Boolean(frame) && !frame!.parent && isAppUrl(frame!.url, appUrl) // not destroyed, top-level, ours
}
