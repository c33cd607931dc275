import { Tag, Tooltip } from 'antd'

/** 部分月份: counted only from when the console first saw the records (e.g. a member added mid-month). */
export const PartialMonthTag = ({ partial }: { partial?: boolean }) =>
  partial ? (
    <Tooltip title="本月部分记录从控制台首次同步到它们时开始计算（例如月中加入的保种员），此前的做种不计入">
      <Tag color="orange" style={{ marginInlineStart: 8 }}>
        部分月份
      </Tag>
    </Tooltip>
  ) : null
