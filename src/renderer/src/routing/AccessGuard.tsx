import type { ReactNode } from 'react'
import { ForbiddenResult } from '@renderer/components/ExceptionResult'
import { useCurrentUser } from '@renderer/stores/user'
import { canAccess } from './access'
import type { RouteAccess } from './types'

/** Renders the page only for roles that may open it; others get the 403 page in its place. */
export default function AccessGuard({ access, children }: { access: RouteAccess | undefined; children: ReactNode }) {
  const user = useCurrentUser()
  return canAccess(user?.role, access) ? children : <ForbiddenResult />
}
