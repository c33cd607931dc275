import { Tag, Tooltip } from 'antd'

/** 部分月份: not counted over the month exactly (a member added mid-month; no sync on a month's 1st). */
export const PartialMonthTag = ({ partial }: { partial?: boolean }) =>
  partial ? (
    <Tooltip title="本月部分做种没能按整月计算：月中加入的保种员从控制台首次同步到它时开始计算，此前的做种不计入；月初或下月 1 日服务器没有同步时，从之后第一次同步的计数算起或算到那时">
      <Tag color="orange" style={{ marginInlineStart: 8 }}>
        部分月份
      </Tag>
    </Tooltip>
  ) : null
