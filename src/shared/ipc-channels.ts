/** IPC channel names (`domain:verb`). Dependency-free so the sandboxed preload can bundle it. */
export const ipcChannels = {
  apiCall: 'api:call',
  settingsGet: 'settings:get',
  settingsSet: 'settings:set',
} as const
export type IpcChannel = (typeof ipcChannels)[keyof typeof ipcChannels]
