import type { ComponentType, ReactNode } from 'react'

/** Who may open a route: any logged-in user, or admins only. No `access` = public. */
export type RouteAccess = 'member' | 'admin'

/**
 * One entry of the route config (Ant Design Pro style). The router and the side menu are both
 * derived from the same array, so a page is added in exactly one place.
 */
export interface AppRoute {
  /** Absolute (`/login`) at the top level, relative (`task`) under a layout. Omit for `index`. */
  path?: string
  index?: boolean
  /** Sets `document.title` (`<title> - 保种管理台`) and labels the menu item. */
  title?: string
  icon?: ReactNode
  access?: RouteAccess
  /**
   * Show in the side menu (when the user's role passes `access`). `'seeder'`: only for users whose
   * own seeding the console follows — every member, and an admin with a site UID; for any other
   * admin the page is always empty (it stays reachable by its address).
   */
  menu?: boolean | 'seeder'
  /** Loaded lazily, on first visit. */
  component: () => Promise<{ default: ComponentType }>
  children?: AppRoute[]
}

/** What each route carries in react-router's `handle`, read back through `useMatches()`. */
export interface RouteHandle {
  title?: string
  access?: RouteAccess
}
