/**
 * A torrent's name in the torrent tables (种子列表, 任务分配), preceded by a red 已禁止 mark when the
 * site's announce refuses it (`Torrent.banned`: banned on the site, or not approved by its review where the
 * site hides unreviewed torrents): nobody can keep it and it cannot be assigned.
 */
import { Tag, Tooltip } from 'antd'
import type { Torrent } from '@shared/entities'

export default function TorrentName({ torrent }: { torrent: Pick<Torrent, 'name' | 'banned'> }) {
  if (!torrent.banned) return <>{torrent.name}</>
  return (
    <>
      <Tooltip title="站点已禁止此种子或其未审核通过：无法做种，不能分配">
        <Tag
          color="red"
          bordered={false}
          style={{ fontSize: 11, lineHeight: '16px', paddingInline: 4, marginInlineEnd: 4 }}
          data-testid="banned-mark"
        >
          已禁止
        </Tag>
      </Tooltip>
      {torrent.name}
    </>
  )
}
