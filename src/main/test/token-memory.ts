import type { TokenKeeper } from '../api-client'

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
