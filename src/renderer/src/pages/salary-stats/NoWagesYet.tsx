/**
 * What 工资统计 and 工资排行 say before a month's wages exist: admins get a way to 工资计算 (where
 * wages are generated), members a sentence saying who generates them.
 */
import { CalculatorOutlined } from '@ant-design/icons'
import { Button, Empty } from 'antd'
import { useNavigate } from 'react-router-dom'
import { useCurrentUser } from '@renderer/stores/user'

export const COMPUTE_PATH = '/salary-computed'

export default function NoWagesYet({ description }: { description: string }) {
  const user = useCurrentUser()
  const navigate = useNavigate()
  const admin = user?.role === 'admin'
  return (
    <Empty
      description={
        admin ? `${description}，请先在「工资计算」中预览并生成` : `${description}。管理员在「工资计算」中生成后，这里会显示结果。`
      }
    >
      {admin && (
        <Button type="primary" icon={<CalculatorOutlined />} onClick={() => void navigate(COMPUTE_PATH)}>
          前往工资计算
        </Button>
      )}
    </Empty>
  )
}
