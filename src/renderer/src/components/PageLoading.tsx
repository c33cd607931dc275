import { Flex, Spin } from 'antd'

/** Full-window spinner in a plain layout (no menu, no header): route loading and app start. */
export default function PageLoading() {
  return (
    <Flex align="center" justify="center" style={{ minHeight: '100vh' }} data-testid="page-loading">
      <Spin size="large" />
    </Flex>
  )
}
