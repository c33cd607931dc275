/** Turns the route config into react-router route objects: lazy, guarded, titled, error-bounded. */
import type { ComponentType } from 'react'
import type { RouteObject } from 'react-router-dom'
import PageLoading from '@renderer/components/PageLoading'
import RouteErrorPage, { PageLoadError } from '@renderer/components/RouteErrorPage'
import AccessGuard from './AccessGuard'
import RouteShell from './RouteShell'
import type { AppRoute, RouteAccess, RouteHandle } from './types'

function guarded(Page: ComponentType, access: RouteAccess): ComponentType {
  function GuardedPage() {
    return (
      <AccessGuard access={access}>
        <Page />
      </AccessGuard>
    )
  }
  GuardedPage.displayName = `Guarded(${Page.displayName ?? Page.name ?? 'Page'})`
  return GuardedPage
}

function toRouteObject(route: AppRoute): RouteObject {
  const handle: RouteHandle = { title: route.title, access: route.access }
  const lazy = async () => {
    const loaded = await route.component().catch((cause: unknown) => new PageLoadError(cause))
    if (loaded instanceof PageLoadError) {
      // A `lazy` that rejects leaves react-router taking the route for still loading: it renders nothing
      // below the root, and the window goes blank. A loader that throws is a route error like any other,
      // shown by this route's error element (the empty Component, there for react-router, never renders).
      return {
        loader: () => {
          throw loaded
        },
        Component: () => null,
      }
    }
    const Page = loaded.default
    return { Component: route.access ? guarded(Page, route.access) : Page }
  }
  // Every route gets its own error element, so a failing page inside the layout keeps the menu.
  const errorElement = <RouteErrorPage />
  if (route.index) return { index: true, handle, lazy, errorElement }
  return { path: route.path, handle, lazy, errorElement, children: route.children?.map(toRouteObject) }
}

/** One pathless root (title sync, first-load spinner, last-resort error page) above the config. */
export function buildRouteObjects(routes: readonly AppRoute[]): RouteObject[] {
  return [
    {
      id: 'root',
      Component: RouteShell,
      HydrateFallback: PageLoading,
      errorElement: <RouteErrorPage />,
      children: routes.map(toRouteObject),
    },
  ]
}
