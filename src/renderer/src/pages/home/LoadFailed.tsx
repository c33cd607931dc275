import { Button, Result } from 'antd'
import { messages } from '@shared/messages'
import type { RequestError } from '@renderer/services/request'

interface LoadFailedProps {
  title: string
  error: RequestError
  retrying: boolean
  onRetry(): void
}

/** A failed load in place of the figures: the server's message and a 重试 button. */
export function LoadFailed({ title, error, retrying, onRetry }: LoadFailedProps) {
  return (
    <Result
      status="error"
      title={title}
      subTitle={error.msg || messages.requestFailed}
      extra={
        <Button type="primary" loading={retrying} onClick={onRetry}>
          重试
        </Button>
      }
    />
  )
}
