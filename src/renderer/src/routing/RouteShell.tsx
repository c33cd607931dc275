import { useEffect } from 'react'
import { Outlet, useMatches } from 'react-router-dom'
import { useCurrentUser } from '@renderer/stores/user'
import { canAccess } from './access'
import { documentTitle } from './documentTitle'
import type { RouteHandle } from './types'

/** The title of the 403 page, which AccessGuard shows in place of a page the user may not open. */
export const FORBIDDEN_TITLE = '无权访问'

/**
 * Root of every route: keeps `document.title` on the deepest matched route's title — or on
 * 无权访问 when the user's role may not open that route (AccessGuard shows the 403 page there).
 */
export default function RouteShell() {
  const matches = useMatches()
  const role = useCurrentUser()?.role
  const handles = matches.map((match) => match.handle as RouteHandle | undefined)
  const forbidden = role !== undefined && handles.some((handle) => handle?.access && !canAccess(role, handle.access))
  const title = forbidden
    ? FORBIDDEN_TITLE
    : handles
        .map((handle) => handle?.title)
        .filter(Boolean)
        .at(-1)

  useEffect(() => {
    document.title = documentTitle(title)
  }, [title])

  return <Outlet />
}
