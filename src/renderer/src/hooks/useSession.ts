import { useCallback } from 'react'
import { useSWRConfig } from 'swr'
import { useUserStore } from '@renderer/stores/user'

/**
 * Ends the renderer's side of a session (after logout, or before a new login): forgets the user,
 * moves every `useApi` key to a new epoch and drops what the old keys had cached.
 */
export function useEndSession(): () => void {
  const { mutate } = useSWRConfig()
  return useCallback(() => {
    useUserStore.getState().endSession()
    void mutate(() => true, undefined, { revalidate: false })
  }, [mutate])
}
