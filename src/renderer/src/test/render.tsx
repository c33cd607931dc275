/** Render helpers: the app's providers (a fresh data cache each time) and the router in memory. */
import type { ReactElement } from 'react'
import { render } from '@testing-library/react'
import { createMemoryRouter } from 'react-router-dom'
import { AppProviders } from '@renderer/AppProviders'
import AppRouter from '@renderer/routing/AppRouter'
import { createAppRouter } from '@renderer/routing/createAppRouter'
import type { AppRoute } from '@renderer/routing/types'

export function renderWithProviders(ui: ReactElement) {
  return render(<AppProviders>{ui}</AppProviders>)
}

/** Renders `routes` at `path`, wired exactly as the app wires them (menu context, navigation helper). */
export function renderRoutes(routes: readonly AppRoute[], path: string) {
  const router = createAppRouter(routes, (routeObjects) => createMemoryRouter(routeObjects, { initialEntries: [path] }))
  const view = renderWithProviders(<AppRouter router={router} routes={routes} />)
  return { router, ...view }
}
