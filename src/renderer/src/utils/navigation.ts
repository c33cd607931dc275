/**
 * Navigation for code outside React components (the request wrapper on 401).
 * The router binds itself here when it is created (see routing/createAppRouter).
 */
export const LOGIN_PATH = '/login'
export const HOME_PATH = '/'
/** Query parameter carrying the page to return to after logging in. */
export const REDIRECT_PARAM = 'redirect'

export interface NavigateOptions {
  replace?: boolean
  /** The history entry's state (the login page reads why it was opened: pages/login/state.ts). */
  state?: unknown
}

export interface NavigationTarget {
  navigate(to: string, options?: NavigateOptions): void
  location(): { pathname: string; search: string }
}

let target: NavigationTarget | null = null

export function bindNavigation(next: NavigationTarget | null): void {
  target = next
}

export function navigateTo(to: string, options?: NavigateOptions): void {
  target?.navigate(to, options)
}

export function currentLocation(): { pathname: string; search: string } {
  return target?.location() ?? { pathname: HOME_PATH, search: '' }
}

/** `/login?redirect=<where the user was>`; no redirect for the home page or the login page itself. */
export function loginPathFor(location: { pathname: string; search?: string }): string {
  const from = `${location.pathname}${location.search ?? ''}`
  if (location.pathname === HOME_PATH || location.pathname === LOGIN_PATH) return LOGIN_PATH
  return `${LOGIN_PATH}?${REDIRECT_PARAM}=${encodeURIComponent(from)}`
}

/**
 * The page to go to after logging in. Only in-app absolute paths are accepted, so a crafted
 * link cannot send the user anywhere unexpected (or back to the login page).
 */
export function redirectTarget(search: string): string {
  const value = new URLSearchParams(search).get(REDIRECT_PARAM)
  if (!value || !value.startsWith('/') || value.startsWith('//')) return HOME_PATH
  if (value === LOGIN_PATH || value.startsWith(`${LOGIN_PATH}?`)) return HOME_PATH
  return value
}

/**
 * Sends the user to the login page, remembering where they were; a no-op on the login page. `state`: what the login
 * page shows on arrival (why the login ended).
 */
export function redirectToLogin(state?: unknown): void {
  const location = currentLocation()
  if (location.pathname === LOGIN_PATH) return
  navigateTo(loginPathFor(location), { replace: true, state })
}
