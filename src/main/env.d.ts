/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Build-time default of the server address, e.g. `http://127.0.0.1:8080/api/v1`. */
  readonly MAIN_VITE_API_BASE?: string
  /** Build-time feed of the generic update provider (electron-updater); empty = no updates. */
  readonly MAIN_VITE_UPDATE_URL?: string
}
