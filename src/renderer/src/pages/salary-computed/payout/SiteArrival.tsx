/** Whether a wage record reached the site, and when on hover (我的工资's 到账站点 cell). */
import { Tag, Tooltip } from 'antd'
import type { SiteArrival } from '@renderer/services/payout'
import { formatDateTime } from '@renderer/utils/format'

const arrivalTags: Record<SiteArrival['state'], { color: string; text: string }> = {
  done: { color: 'green', text: '已到账' },
  pending: { color: 'blue', text: '发放中' },
  in_doubt: { color: 'orange', text: '待核对' },
  failed: { color: 'red', text: '未到账' },
}

export function SiteArrivalTag({ arrival }: { arrival: SiteArrival | undefined }) {
  if (!arrival) return <span>-</span>
  const tag = arrivalTags[arrival.state]
  const content = <Tag color={tag.color}>{tag.text}</Tag>
  return arrival.doneAt ? <Tooltip title={`到账时间：${formatDateTime(arrival.doneAt)}`}>{content}</Tooltip> : content
}
