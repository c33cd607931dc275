import { createContext, useContext, type ReactNode } from 'react'
import type { AppRoute } from './types'

/** The route config the app runs on, so the layout builds its menu from the same array. */
const RoutesContext = createContext<readonly AppRoute[]>([])

export function AppRoutesProvider({ routes, children }: { routes: readonly AppRoute[]; children: ReactNode }) {
  return <RoutesContext.Provider value={routes}>{children}</RoutesContext.Provider>
}

export function useAppRoutes(): readonly AppRoute[] {
  return useContext(RoutesContext)
}
