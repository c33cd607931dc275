/** Admin calls on members and admins of `/api/v1/user` and `/api/v1/config` (保种员, 管理员 pages). */
import type { User, UserDetail } from '@shared/entities'
import type { EndpointInput } from '@shared/endpoints'
import type { AccountStatus } from '@shared/enums'
import { pagedRequest, request, type RequestOptions, type TableData, type TableParams, type TableSort } from './request'

export type CreateUserInput = EndpointInput<'user.create'>
export type UpdateUserInput = EndpointInput<'user.update'>

// POST /user/page-normal — members, with status/username/siteUid filters.
export function pageNormal(params: TableParams, sort?: TableSort | null): Promise<TableData<User>> {
  return pagedRequest('user.pageNormal', params, sort)
}

// POST /user/page-admin — admins.
export function pageAdmin(params: TableParams, sort?: TableSort | null, options?: RequestOptions): Promise<TableData<User>> {
  return pagedRequest('user.pageAdmin', params, sort, options)
}

// GET /user/{id} — one user with their records by status.
export function userDetail(id: number, options?: RequestOptions): Promise<UserDetail> {
  return request('user.detail', { id }, options)
}

// POST /user/create
export function createUser(input: CreateUserInput, options?: RequestOptions): Promise<User> {
  return request('user.create', input, options)
}

// POST /user/update — site uid and remark.
export function updateUser(input: UpdateUserInput, options?: RequestOptions): Promise<User> {
  return request('user.update', input, options)
}

// POST /user/set-status — 0 封禁, 1 已删除, 2 正常.
export function setUserStatus(id: number, status: AccountStatus, options?: RequestOptions): Promise<User> {
  return request('user.setStatus', { id, status }, options)
}

// POST /user/reset-password
export async function resetPassword(id: number, password: string, options?: RequestOptions): Promise<void> {
  await request('user.resetPassword', { id, password }, options)
}

// GET /config/add-admin?userId=
export function addAdmin(userId: number, options?: RequestOptions): Promise<User> {
  return request('config.addAdmin', { userId }, options)
}

// GET /config/del-admin?userId= — the server refuses the last admin and yourself (409).
export function delAdmin(userId: number, options?: RequestOptions): Promise<User> {
  return request('config.delAdmin', { userId }, options)
}
