import { RouterProvider } from 'react-router-dom'
import type { createAppRouter } from './createAppRouter'
import { AppRoutesProvider } from './RoutesContext'
import type { AppRoute } from './types'

export type AppDataRouter = ReturnType<typeof createAppRouter>

/**
 * The router on screen, with its config in context for the menu. Route changes are committed
 * without `startTransition` (no route suspends), so a new URL and its page appear together.
 */
export default function AppRouter({ router, routes }: { router: AppDataRouter; routes: readonly AppRoute[] }) {
  return (
    <AppRoutesProvider routes={routes}>
      <RouterProvider router={router} useTransitions={false} />
    </AppRoutesProvider>
  )
}
