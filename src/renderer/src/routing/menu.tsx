/** The side menu, derived from the route config and filtered by the user's role. */
import type { ReactNode } from 'react'
import type { Role } from '@shared/enums'
import { canAccess } from './access'
import type { AppRoute } from './types'

export interface MenuEntry {
  /** Full path; also the antd Menu key. */
  path: string
  title: string
  icon?: ReactNode
}

export function joinPath(parent: string, child: string | undefined): string {
  if (!child) return parent
  if (child.startsWith('/')) return child
  return `${parent.replace(/\/+$/, '')}/${child}`
}

/** Does the console follow this user's own seeding: every member, and an admin with a site UID. */
export function isSeeder(user: { role: Role; siteUid: number | null }): boolean {
  return user.role === 'normal' || user.siteUid !== null
}

/**
 * Menu entries in config order: routes marked `menu` that the role may open (`'seeder'` entries only
 * when `seeder`, which defaults to true).
 */
export function menuEntries(
  routes: readonly AppRoute[],
  role: Role | null | undefined,
  options: { seeder?: boolean; parentPath?: string } = {},
): MenuEntry[] {
  const { seeder = true, parentPath = '/' } = options
  const entries: MenuEntry[] = []
  for (const route of routes) {
    const path = route.index ? parentPath : joinPath(parentPath, route.path)
    if (!canAccess(role, route.access)) continue
    const shown = route.menu === true || (route.menu === 'seeder' && seeder)
    if (shown && route.title) entries.push({ path, title: route.title, icon: route.icon })
    if (route.children) entries.push(...menuEntries(route.children, role, { seeder, parentPath: path }))
  }
  return entries
}

/** The entry to highlight: exact match, or the parent of a detail page (`/normal-user/12`). */
export function selectedMenuPath(entries: readonly MenuEntry[], pathname: string): string | undefined {
  let best: string | undefined
  for (const { path } of entries) {
    const matches = pathname === path || (path !== '/' && pathname.startsWith(`${path}/`))
    if (matches && (!best || path.length > best.length)) best = path
  }
  return best
}
