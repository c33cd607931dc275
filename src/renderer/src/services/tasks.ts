/** Assignment calls of `/api/v1/task` (任务分配). */
import type { Assignee, KeeperOption } from '@shared/entities'
import type { EndpointOutput } from '@shared/endpoints'
import { request, type RequestOptions } from './request'

export type AutoAssignResult = EndpointOutput<'task.autoAssign'>

// POST /task/assign
export function assignTasks(
  torrentIds: number[],
  userIds: number[],
  options?: RequestOptions,
): Promise<{ created: number; existed: number }> {
  return request('task.assign', { torrentIds, userIds }, options)
}

// POST /task/unassign — without userIds: every keeper of these torrents.
export function unassignTasks(torrentIds: number[], userIds?: number[], options?: RequestOptions): Promise<{ removed: number }> {
  return request('task.unassign', userIds ? { torrentIds, userIds } : { torrentIds }, options)
}

// POST /task/auto-assign — `preview: true` returns the plan and writes nothing.
export function autoAssign(preview: boolean, perTorrent?: number, options?: RequestOptions): Promise<AutoAssignResult> {
  return request('task.autoAssign', perTorrent === undefined ? { preview } : { preview, perTorrent }, options)
}

// POST /task/assignees — who each of these torrents is assigned to.
export function torrentAssignees(torrentIds: number[], options?: RequestOptions): Promise<Assignee[]> {
  return request('task.assignees', { torrentIds }, options)
}

// GET /task/members — members who can keep torrents, with their load (the assign picker).
export function keeperOptions(options?: RequestOptions): Promise<KeeperOption[]> {
  return request('task.members', undefined, options)
}
