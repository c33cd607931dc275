import type { RendererApi } from '../shared/ipc'

declare global {
  interface Window {
    /** The only bridge to the main process (see src/preload/index.ts). */
    api: RendererApi
  }
}

export {}
