/** The logged-in user, set by the root layout once `login-info` answers; pages read the role here. */
import { create } from 'zustand'
import type { LoginInfo } from '@shared/entities'

interface UserState {
  currentUser: LoginInfo | null
  /** Bumped when a session ends; part of every `useApi` key (hooks/useApi). */
  sessionEpoch: number
  setCurrentUser(user: LoginInfo | null): void
  endSession(): void
}

export const useUserStore = create<UserState>()((set) => ({
  currentUser: null,
  sessionEpoch: 0,
  setCurrentUser: (currentUser) => set({ currentUser }),
  endSession: () => set((state) => ({ currentUser: null, sessionEpoch: state.sessionEpoch + 1 })),
}))

export const useCurrentUser = (): LoginInfo | null => useUserStore((state) => state.currentUser)
