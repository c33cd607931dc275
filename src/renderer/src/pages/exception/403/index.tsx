import { Flex } from 'antd'
import { ForbiddenResult } from '@renderer/components/ExceptionResult'

export default function ForbiddenPage() {
  return (
    <Flex align="center" justify="center" style={{ minHeight: '100vh' }}>
      <ForbiddenResult />
    </Flex>
  )
}
