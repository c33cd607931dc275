/**
 * The bridge: one typed `window.api` object and nothing else (no raw ipcRenderer, no Node).
 * Main validates every payload, so this file only forwards.
 */
import { contextBridge, ipcRenderer } from 'electron'
import { ipcChannels } from '../shared/ipc-channels'
import type { RendererApi } from '../shared/ipc'

const api: RendererApi = {
  call: (endpoint, input) => ipcRenderer.invoke(ipcChannels.apiCall, { endpoint, input }),
  getSettings: () => ipcRenderer.invoke(ipcChannels.settingsGet),
  setSettings: (patch) => ipcRenderer.invoke(ipcChannels.settingsSet, patch),
}

contextBridge.exposeInMainWorld('api', api)
