/**
 * Seed hours on the wage screens. A wage record's `seedHours` is summed over its qualified
 * torrents (hundreds of thousands of hours a month for a big keeper), while the formula multiplies
 * by their average: the screens lead with the average and show the total in days.
 */
import { QuestionCircleOutlined } from '@ant-design/icons'
import { Space, Tooltip } from 'antd'

/**
 * Always one decimal (`596.0`, `470.4`), so the decimals of a column line up — cut, never rounded up: 299.99 h refused
 * beside a 300 h standard reads 299.9, not a 300.0 that meets it (the reason's text keeps its hundredths).
 */
export const formatHoursNumber = (hours: number) =>
  (Math.floor(hours * 10 + 1e-9) / 10).toLocaleString('zh-CN', { minimumFractionDigits: 1, maximumFractionDigits: 1 })

/** "286.4 小时", "596.0 小时": seed hours as the formula uses them (a total reads in days: utils/format `formatHours`). */
export const formatSeedHours = (hours: number) => `${formatHoursNumber(hours)} 小时`

/** A right-aligned figures column's cells: digits of one width, so the figures line up under each other. */
export const figureCell = () => ({ style: { fontVariantNumeric: 'tabular-nums' } })

/** The average seed hours per qualified torrent (the server's `avgSeedHours`, derived for older answers). */
export function averageSeedHours(wage: { seedHours: number; torrentCount: number; avgSeedHours?: number }): number {
  if (wage.avgSeedHours !== undefined) return wage.avgSeedHours
  return wage.torrentCount > 0 ? wage.seedHours / wage.torrentCount : 0
}

export const AVERAGE_HOURS_HELP = '达标种子的平均做种时长，工资公式按它计算'
export const TOTAL_HOURS_HELP = '全部达标种子的做种时长之和'

/** A column title with its explanation on hover. */
export const HelpTitle = ({ title, help }: { title: string; help: string }) => (
  <Tooltip title={help}>
    <Space size={4}>
      {title}
      <QuestionCircleOutlined style={{ fontSize: 12 }} aria-label={help} />
    </Space>
  </Tooltip>
)
