import { Flex } from 'antd'
import { NotFoundResult } from '@renderer/components/ExceptionResult'

export default function NotFoundPage() {
  return (
    <Flex align="center" justify="center" style={{ minHeight: '100vh' }}>
      <NotFoundResult />
    </Flex>
  )
}
