/**
 * 自动分配: the plan of `task/auto-assign { preview: true }` (nothing written yet) as a table of
 * torrent and member; `确认分配` commits it with `{ preview: false }`.
 */
import { useState } from 'react'
import { Alert, Modal, Table, Typography } from 'antd'
import { AssignmentLabel, SeedType } from '@shared/enums'
import { autoAssign, type AutoAssignResult } from '@renderer/services/tasks'
import { pageTorrents } from '@renderer/services/torrents'
import { userOptions } from '@renderer/services/user'
import { errorMessage } from '@renderer/components/FormModal'
import { WINDOW_FIT_MODAL } from '@renderer/components/windowFitModal'
import { READ_ONCE, useLoad, useOpening } from '@renderer/hooks/useApi'
import { toastSuccess } from '@renderer/utils/feedback'
import { formatCount } from '@renderer/utils/format'

export interface PlanRow {
  key: string
  torrentId: number
  torrentName: string
  userId: number
  username: string
}

/** Most pages of unassigned official torrents read to name the plan's torrents. */
const NAME_PAGES = 5

/**
 * The plan with names: as the server names each pair (0.3.6 on); from an older server, members from the user
 * options and torrents from the unassigned official list (which misses those assigned only to inactive members).
 */
async function namePlan(plan: AutoAssignResult['plan']): Promise<PlanRow[]> {
  const named = plan.every((item) => item.torrentName !== undefined && item.username !== undefined)
  const [users, torrentNames] = named ? [[], new Map<number, string>()] : await Promise.all([userOptions(), unassignedNames(plan)])
  const usernames = new Map(users.map((user) => [user.id, user.username]))
  return plan.map((item) => ({
    key: `${item.torrentId}-${item.userId}`,
    torrentId: item.torrentId,
    userId: item.userId,
    torrentName: item.torrentName || torrentNames.get(item.torrentId) || `种子 #${item.torrentId}`,
    username: item.username || usernames.get(item.userId) || `用户 #${item.userId}`,
  }))
}

/** The names of the plan's torrents among the unassigned official ones (at most NAME_PAGES pages). */
async function unassignedNames(plan: AutoAssignResult['plan']): Promise<Map<number, string>> {
  const names = new Map<number, string>()
  const wanted = new Set(plan.map((item) => item.torrentId))
  for (let page = 1; page <= NAME_PAGES && [...wanted].some((id) => !names.has(id)); page += 1) {
    const answer = await pageTorrents(
      { current: page, pageSize: 200, seedType: SeedType.Official, assigned: AssignmentLabel.Unassigned },
      null,
      { silent: true },
    )
    for (const torrent of answer.data) names.set(torrent.id, torrent.name)
    if (!answer.success || answer.data.length < 200) break
  }
  return names
}

export interface AutoAssignModalProps {
  open: boolean
  onClose(): void
  /** After a commit. */
  onAssigned(): void
}

export default function AutoAssignModal({ open, onClose, onAssigned }: AutoAssignModalProps) {
  // Each opening previews anew: the plan follows the current load.
  const opening = useOpening(open)
  const preview = useLoad(
    'task.autoAssign.preview',
    opening,
    async () => namePlan((await autoAssign(true, undefined, { silent: true })).plan),
    READ_ONCE,
  )
  // A refused commit, shown until the next opening.
  const [commitError, setCommitError] = useState<{ opening: number | null; message: string } | null>(null)
  const [committing, setCommitting] = useState(false)
  // A failed preview shows its message over an empty plan.
  const rows = preview.error ? [] : (preview.data ?? null)
  const error = (commitError?.opening === opening ? commitError.message : null) ?? (preview.error ? errorMessage(preview.error) : null)

  const commit = async () => {
    setCommitting(true)
    setCommitError(null)
    try {
      const result = await autoAssign(false, undefined, { silent: true })
      toastSuccess(`已自动分配 ${formatCount(result.created)} 项任务`)
      onAssigned()
      onClose()
    } catch (failure) {
      setCommitError({ opening, message: errorMessage(failure) })
    } finally {
      setCommitting(false)
    }
  }

  const torrents = new Set(rows?.map((row) => row.torrentId)).size
  const members = new Set(rows?.map((row) => row.userId)).size

  return (
    <Modal
      {...WINDOW_FIT_MODAL}
      open={open}
      title="自动分配（预览）"
      width={760}
      okText="确认分配"
      cancelText="取消"
      onOk={() => void commit()}
      okButtonProps={{ disabled: !rows || rows.length === 0 }}
      confirmLoading={committing}
      onCancel={onClose}
      destroyOnHidden
    >
      {error && <Alert type="error" showIcon title={error} role="alert" style={{ marginBottom: 12 }} />}
      <Typography.Paragraph type="secondary" data-testid="auto-assign-summary">
        {preview.error
          ? '没有算出分配方案，关闭后再打开可重试。'
          : rows === null
            ? '正在计算分配方案…'
            : rows.length === 0
              ? '没有需要分配的官种（未分配的官种都已有足够的保种员，或没有可分配的保种员；站点已禁止或未审核通过的种子不参与）。'
              : `共 ${formatCount(rows.length)} 项分配，涉及 ${formatCount(torrents)} 个种子、${formatCount(members)} 位保种员。按当前负载均衡，不会分给已在做种的保种员，站点已禁止或未审核通过的种子不参与；确认后才会写入。`}
      </Typography.Paragraph>
      <Table<PlanRow>
        size="small"
        rowKey="key"
        loading={rows === null}
        dataSource={rows ?? []}
        pagination={{ pageSize: 10, showSizeChanger: false, showTotal: (total) => `共 ${formatCount(total)} 条` }}
        columns={[
          { title: '种子', dataIndex: 'torrentName', ellipsis: true },
          { title: '保种员', dataIndex: 'username', width: 180 },
        ]}
      />
    </Modal>
  )
}
