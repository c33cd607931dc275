/** The exception results (403, 404, 500 with a way home), shared by the exception pages and the access guard. */
import type { ReactNode } from 'react'
import { Button, Result, Space, type ResultProps } from 'antd'
import { useNavigate } from 'react-router-dom'
import { HOME_PATH } from '@renderer/utils/navigation'

export const exceptionTexts = {
  403: '抱歉，你无权访问该页面。',
  404: '抱歉，你访问的页面不存在。',
  500: '抱歉，服务器出错了。',
} as const

function BackHomeButton({ primary }: { primary: boolean }) {
  const navigate = useNavigate()
  return (
    <Button type={primary ? 'primary' : 'default'} onClick={() => navigate(HOME_PATH)}>
      返回首页
    </Button>
  )
}

interface ExceptionResultProps {
  status: ResultProps['status']
  title: ReactNode
  subTitle: ReactNode
  /** A better way out than 返回首页 (e.g. 重新加载), shown first as the primary button. */
  action?: ReactNode
}

export function ExceptionResult({ status, title, subTitle, action }: ExceptionResultProps) {
  return (
    <Result
      status={status}
      title={title}
      subTitle={subTitle}
      extra={
        <Space wrap>
          {action}
          <BackHomeButton primary={!action} />
        </Space>
      }
    />
  )
}

export function ForbiddenResult() {
  return <ExceptionResult status="403" title="403" subTitle={exceptionTexts[403]} />
}

export function NotFoundResult() {
  return <ExceptionResult status="404" title="404" subTitle={exceptionTexts[404]} />
}

export function ServerErrorResult() {
  return <ExceptionResult status="500" title="500" subTitle={exceptionTexts[500]} />
}
