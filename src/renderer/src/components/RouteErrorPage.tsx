import { isRouteErrorResponse, useRouteError } from 'react-router-dom'
import { ExceptionResult } from './ExceptionResult'

export const FALLBACK_ERROR_TITLE = '出错了'

/** The error's name (`TypeError`, `RequestError`, `404 Not Found`), if it has one. */
export function errorName(error: unknown): string | undefined {
  if (isRouteErrorResponse(error)) return [error.status, error.statusText].filter(Boolean).join(' ') || undefined
  if (error && typeof error === 'object' && 'name' in error && typeof error.name === 'string' && error.name) return error.name
  return undefined
}

function errorMessage(error: unknown): string | undefined {
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string' && error.message) return error.message
  return undefined
}

/** Route error element: status 500 with the error's name, or `出错了` when it has none. */
export default function RouteErrorPage() {
  const error = useRouteError()
  return (
    <ExceptionResult status="500" title={errorName(error) ?? FALLBACK_ERROR_TITLE} subTitle={errorMessage(error) ?? '抱歉，页面出错了。'} />
  )
}
