import type { DeviceKeyKeeper, TokenKeeper } from '../api-client'

/** A token keeper in memory, for client tests that are not about storage. */
export function memoryTokens(initial: string | null = null): TokenKeeper & { token: string | null } {
  const keeper = {
    token: initial,
    getToken: () => keeper.token,
    setToken: (token: string) => void (keeper.token = token),
    clearToken: () => void (keeper.token = null),
  }
  return keeper
}

/** A device key keeper in memory: `keys` by `origin username`. */
export function memoryDeviceKeys(initial: Record<string, string> = {}): DeviceKeyKeeper & { keys: Map<string, string> } {
  const keys = new Map(Object.entries(initial))
  return {
    keys,
    getDeviceKey: (origin, username) => keys.get(`${origin} ${username}`) ?? null,
    setDeviceKey: (origin, username, key) => void keys.set(`${origin} ${username}`, key),
  }
}
