// Sets up React Fast Refresh from a module: the CSP forbids the inline preamble script in dev.
// It is an empty module in production builds.
import '@vitejs/plugin-react/preamble'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import App from './App'
import { routes } from './router'
import { createAppRouter } from './routing/createAppRouter'

// Created once, outside React, so StrictMode's double render never builds a second router.
const router = createAppRouter(routes)

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App router={router} routes={routes} />
  </StrictMode>,
)
