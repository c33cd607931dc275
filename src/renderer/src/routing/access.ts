import type { Role } from '@shared/enums'
import type { RouteAccess } from './types'

/** Public routes pass; `member` needs a logged-in user; `admin` needs the admin role. */
export function canAccess(role: Role | null | undefined, access: RouteAccess | undefined): boolean {
  if (!access) return true
  if (!role) return false
  return access === 'member' || role === 'admin'
}
