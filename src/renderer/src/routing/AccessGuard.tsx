import type { ReactNode } from 'react'
import { Navigate, useLocation } from 'react-router-dom'
import { ForbiddenResult } from '@renderer/components/ExceptionResult'
import { useCurrentUser } from '@renderer/stores/user'
import { HOME_PATH } from '@renderer/utils/navigation'
import { canAccess } from './access'
import type { RouteAccess } from './types'

/** How the login page arrives at the page it returns to (navigation state). */
export interface AfterLoginState {
  afterLogin: true
}

/**
 * Renders the page only for roles that may open it; others get the 403 page in its place — except right after a
 * login: the page the login returns to was the last user's (an admin's session expired on 工资统计, a member logs in
 * on that screen), and the member lands on 首页, not on 无权访问.
 */
export default function AccessGuard({ access, children }: { access: RouteAccess | undefined; children: ReactNode }) {
  const user = useCurrentUser()
  const location = useLocation()
  if (canAccess(user?.role, access)) return children
  return (location.state as Partial<AfterLoginState> | null)?.afterLogin ? <Navigate to={HOME_PATH} replace /> : <ForbiddenResult />
}
