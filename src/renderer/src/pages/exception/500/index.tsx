import { Flex } from 'antd'
import { ServerErrorResult } from '@renderer/components/ExceptionResult'

export default function ServerErrorPage() {
  return (
    <Flex align="center" justify="center" style={{ minHeight: '100vh' }}>
      <ServerErrorResult />
    </Flex>
  )
}
