/** Account calls of `/api/v1/user`. */
import type { LoginInfo, SeedRecord, UserOption } from '@shared/entities'
import type { ChangePasswordInput, LoginInput } from '@shared/endpoints'
import { pagedRequest, request, requestOr, type RequestOptions, type TableData, type TableParams, type TableSort } from './request'

// POST /user/login — main keeps the returned token; the renderer never sees it.
export async function login(input: LoginInput, options?: RequestOptions): Promise<void> {
  await request('user.login', input, options)
}

// POST /user/logout
export async function logout(options?: RequestOptions): Promise<void> {
  await request('user.logout', undefined, options)
}

// POST /user/change-password — the user's own; this session stays, their others end.
export async function changePassword(input: ChangePasswordInput, options?: RequestOptions): Promise<void> {
  await request('user.changePassword', input, options)
}

// GET /user/login-info
export function loginInfo(options?: RequestOptions): Promise<LoginInfo> {
  return request('user.loginInfo', undefined, options)
}

// GET /user/list — every member and admin, for selects; `[]` when the call fails (after its toast).
export function userOptions(): Promise<UserOption[]> {
  return requestOr('user.list', undefined, [] as UserOption[])
}

// POST /user/page-seed — seed records; the server limits a member to their own.
export function pageSeed(params: TableParams, sort?: TableSort | null): Promise<TableData<SeedRecord>> {
  return pagedRequest('user.pageSeed', params, sort)
}
