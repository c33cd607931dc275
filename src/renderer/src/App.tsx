import { useEffect } from 'react'
import { AppProviders } from './AppProviders'
import PageLoading from './components/PageLoading'
import AppRouter, { type AppDataRouter } from './routing/AppRouter'
import type { AppRoute } from './routing/types'
import { useSettingsStore } from './stores/settings'

interface AppProps {
  router: AppDataRouter
  routes: readonly AppRoute[]
}

export default function App({ router, routes }: AppProps) {
  const loaded = useSettingsStore((state) => state.loaded)

  useEffect(() => {
    void useSettingsStore.getState().load()
  }, [])

  return (
    <AppProviders>
      {/* Nothing themed is drawn before the saved theme is known: no dark/light flash. */}
      {loaded ? <AppRouter router={router} routes={routes} /> : <PageLoading />}
    </AppProviders>
  )
}
