import { createHashRouter, type RouteObject } from 'react-router-dom'
import { bindNavigation } from '@renderer/utils/navigation'
import { buildRouteObjects } from './buildRoutes'
import type { AppRoute } from './types'

type DataRouter = ReturnType<typeof createHashRouter>

/**
 * Builds the router from the config (hash history by default; tests pass a memory router) and
 * binds it as the navigation target of non-component code such as the request wrapper.
 */
export function createAppRouter(
  routes: readonly AppRoute[],
  create: (routeObjects: RouteObject[]) => DataRouter = (routeObjects) => createHashRouter(routeObjects),
): DataRouter {
  const router = create(buildRouteObjects(routes))
  bindNavigation({
    navigate: (to, options) => void router.navigate(to, options),
    location: () => router.state.location,
  })
  return router
}
