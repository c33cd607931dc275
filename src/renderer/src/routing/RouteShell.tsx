import { useEffect } from 'react'
import { Outlet, useMatches } from 'react-router-dom'
import { documentTitle } from './documentTitle'
import type { RouteHandle } from './types'

/** Root of every route: keeps `document.title` on the deepest matched route's title. */
export default function RouteShell() {
  const matches = useMatches()
  const title = matches
    .map((match) => (match.handle as RouteHandle | undefined)?.title)
    .filter(Boolean)
    .at(-1)

  useEffect(() => {
    document.title = documentTitle(title)
  }, [title])

  return <Outlet />
}
