import { Button } from 'antd'
import { isRouteErrorResponse, useRouteError } from 'react-router-dom'
import { ExceptionResult } from './ExceptionResult'

export const FALLBACK_ERROR_TITLE = '出错了'
export const PAGE_LOAD_FAILED = '页面加载失败：程序文件可能已更新或缺失，请重新加载。'

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

/**
 * A page's code that failed to load (its chunk answered 404, or an update replaced the files under the
 * running window): a reload fetches the build that is there now. Named as its cause (`TypeError` for a
 * module script that did not load), as the error page titles an error by its name.
 */
export class PageLoadError extends Error {
  constructor(cause: unknown) {
    super(PAGE_LOAD_FAILED, { cause })
    this.name = errorName(cause) ?? 'PageLoadError'
  }
}

/** Route error element: status 500 with the error's name, or `出错了` when it has none; 重新加载 when a page failed to load. */
export default function RouteErrorPage() {
  const error = useRouteError()
  return (
    <ExceptionResult
      status="500"
      title={errorName(error) ?? FALLBACK_ERROR_TITLE}
      subTitle={errorMessage(error) ?? '抱歉，页面出错了。'}
      action={
        error instanceof PageLoadError && (
          <Button type="primary" onClick={() => window.location.reload()}>
            重新加载
          </Button>
        )
      }
    />
  )
}
