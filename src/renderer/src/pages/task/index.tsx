/**
 * 我的任务: the current user's seed records (page-seed). The server limits members to their own
 * records; the page also sends the user's own id, so an admin here sees only theirs as well.
 * `?status=3` opens the list filtered by that status (the dashboard links here).
 */
import { useMemo } from 'react'
import { useSearchParams } from 'react-router-dom'
import { Empty, Flex } from 'antd'
import type { SeedRecord } from '@shared/entities'
import { sortableFields } from '@shared/endpoints'
import { seedStatusValues, type SeedStatus } from '@shared/enums'
import DataTable from '@renderer/components/DataTable'
import NoSiteUidAlert, { lacksSiteUid } from '@renderer/components/NoSiteUidAlert'
import { seedRecordColumns } from '@renderer/components/seedRecordColumns'
import { pageSeed } from '@renderer/services/user'
import { useCurrentUser } from '@renderer/stores/user'

export const TASK_TABLE_KEY = 'task.seedRecords'

// 上传量 (like 下载量) is one click away in the column settings: at 1280 px a member sees what to seed,
// whether it is seeding and claimed, and since when it is theirs, without scrolling sideways.
const columns = seedRecordColumns(['uploaded', 'downloaded'])

/** `?status=3` → `{ status: 3 }`; anything that is not a status is ignored. */
export function statusFromQuery(value: string | null): SeedStatus | undefined {
  const status = Number(value)
  return seedStatusValues.includes(status as SeedStatus) ? (status as SeedStatus) : undefined
}

export default function TaskPage() {
  const user = useCurrentUser()
  const [searchParams] = useSearchParams()
  const initialStatus = statusFromQuery(searchParams.get('status'))
  const initialSearch = useMemo(() => (initialStatus ? { status: initialStatus } : {}), [initialStatus])
  const params = useMemo(() => ({ userId: user?.id }), [user?.id])
  if (!user) return null
  // Without a site UID there can be no records: the table says why rather than 暂无数据.
  const noUid = lacksSiteUid(user)
  return (
    <Flex vertical gap={16}>
      <NoSiteUidAlert user={user} />
      <DataTable<SeedRecord>
        // A new ?status= (a dashboard link while this page is open) starts a fresh table.
        key={initialStatus ?? 'all'}
        tableKey={TASK_TABLE_KEY}
        title="我的做种记录"
        rowKey="id"
        columns={columns}
        sortableFields={sortableFields.pageSeed}
        params={params}
        initialSearch={initialSearch}
        request={pageSeed}
        empty={
          noUid
            ? (search) =>
                Object.keys(search).length > 0 ? undefined : (
                  <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="账号未绑定站点 UID，暂时没有做种记录" />
                )
            : undefined
        }
      />
    </Flex>
  )
}
