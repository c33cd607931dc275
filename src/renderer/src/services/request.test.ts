import { beforeEach, describe, expect, it, vi } from 'vitest'
import { bindMessageApi } from '@renderer/utils/feedback'
import { bindNavigation } from '@renderer/utils/navigation'
import { fail, installFakeApi, memberUser, ok, type FakeApi } from '@renderer/test/fakeApi'
import { pagedRequest, request, RequestError, requestOr, toOrderBy, toPagedInput, type PagedEndpointName } from './request'

const PAGED = 'user.pageSeed' satisfies PagedEndpointName
const OPTIONS = 'user.list'

let api: FakeApi
const toast = { error: vi.fn(), success: vi.fn() }
const navigate = vi.fn()
let where = { pathname: '/task', search: '?status=3' }

beforeEach(() => {
  api = installFakeApi()
  toast.error.mockReset()
  navigate.mockReset()
  where = { pathname: '/task', search: '?status=3' }
  bindMessageApi(toast as never)
  bindNavigation({ navigate, location: () => where })
})

describe('request', () => {
  it('resolves to the data of a successful call', async () => {
    api.handle('user.loginInfo', ok(memberUser))
    await expect(request('user.loginInfo')).resolves.toEqual(memberUser)
    expect(api.call).toHaveBeenCalledWith('user.loginInfo', undefined)
    expect(toast.error).not.toHaveBeenCalled()
  })

  it("toasts the server's msg and throws a RequestError with code and msg", async () => {
    api.handle('user.login', fail(400, '用户名或密码错误'))
    const error = await request('user.login', { username: 'a', password: 'b' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RequestError)
    expect(error).toMatchObject({ code: 400, msg: '用户名或密码错误', name: 'RequestError' })
    expect(toast.error).toHaveBeenCalledWith('用户名或密码错误')
  })

  it('says 无法连接服务器 once while the server stays unreachable, and again after a call answered', async () => {
    const unreachable = fail(0, '无法连接服务器，请检查服务器地址和网络')
    api.handle('health', unreachable)
    for (let i = 0; i < 3; i++) await expect(request('health')).rejects.toMatchObject({ code: 0 })
    expect(toast.error).toHaveBeenCalledTimes(1)
    api.handle('user.loginInfo', ok(memberUser))
    await request('user.loginInfo')
    await expect(request('health')).rejects.toMatchObject({ code: 0 })
    expect(toast.error).toHaveBeenCalledTimes(2)
    // Other errors are each told.
    api.handle('user.login', fail(400, '用户名或密码错误'))
    for (let i = 0; i < 2; i++) await expect(request('user.login', { username: 'a', password: 'b' })).rejects.toThrow()
    expect(toast.error).toHaveBeenCalledTimes(4)
    await request('user.loginInfo') // the next test starts with the outage told of
  })

  it('toasts 请求出错 when the failure has no msg', async () => {
    api.handle('health', fail(500, ''))
    await expect(request('health')).rejects.toMatchObject({ code: 500, msg: '请求出错' })
    expect(toast.error).toHaveBeenCalledWith('请求出错')
  })

  it('treats a rejected bridge call as a failed request', async () => {
    api.call.mockRejectedValueOnce(new Error('ipc broke'))
    await expect(request('health')).rejects.toMatchObject({ code: 0, msg: '请求出错' })
    expect(toast.error).toHaveBeenCalledWith('请求出错')
  })

  it('stays quiet when silent', async () => {
    api.handle('health', fail(500, '服务器内部错误，请稍后再试'))
    await expect(request('health', undefined, { silent: true })).rejects.toBeInstanceOf(RequestError)
    expect(toast.error).not.toHaveBeenCalled()
  })

  it('goes to /login on 401, remembering the page', async () => {
    api.handle('user.loginInfo', fail(401, '请先登录'))
    await expect(request('user.loginInfo', undefined, { silent: true })).rejects.toMatchObject({ code: 401 })
    expect(navigate).toHaveBeenCalledWith('/login?redirect=%2Ftask%3Fstatus%3D3', { replace: true, state: undefined })
  })

  it('a login the server ended tells the login page why (a silent call toasts nothing)', async () => {
    api.handle('user.loginInfo', fail(401, '账号已被封禁'))
    await expect(request('user.loginInfo', undefined, { silent: true })).rejects.toMatchObject({ code: 401 })
    expect(navigate).toHaveBeenCalledWith('/login?redirect=%2Ftask%3Fstatus%3D3', { replace: true, state: { ended: '账号已被封禁' } })
    expect(toast.error).not.toHaveBeenCalled()
  })

  it('does not navigate on 401 when already on /login', async () => {
    where = { pathname: '/login', search: '' }
    api.handle('user.login', fail(401, '用户名或密码错误'))
    await expect(request('user.login', { username: 'a', password: 'b' })).rejects.toMatchObject({ code: 401 })
    expect(navigate).not.toHaveBeenCalled()
    expect(toast.error).toHaveBeenCalledWith('用户名或密码错误')
  })

  it('does not navigate on other failures', async () => {
    api.handle('health', fail(403, '无权限'))
    await expect(request('health')).rejects.toMatchObject({ code: 403 })
    expect(navigate).not.toHaveBeenCalled()
  })
})

describe('requestOr', () => {
  it('resolves to the fallback on failure (after the toast)', async () => {
    api.handle(OPTIONS, fail(500, '服务器内部错误，请稍后再试'))
    await expect(requestOr(OPTIONS, undefined, [])).resolves.toEqual([])
    expect(toast.error).toHaveBeenCalledWith('服务器内部错误，请稍后再试')
  })

  it('resolves to the data on success', async () => {
    api.handle(OPTIONS, ok([{ id: 1, username: 'admin' }]))
    await expect(requestOr(OPTIONS, undefined, [])).resolves.toEqual([{ id: 1, username: 'admin' }])
  })
})

describe('toOrderBy', () => {
  it('builds "<field> ASC|DESC" from an antd sorter', () => {
    expect(toOrderBy({ field: 'size', order: 'ascend' })).toBe('size ASC')
    expect(toOrderBy({ field: 'lastAction', columnKey: 'x', order: 'descend' })).toBe('lastAction DESC')
    expect(toOrderBy({ columnKey: 'assignedAt', order: 'descend' })).toBe('assignedAt DESC')
    expect(toOrderBy({ field: ['torrent', 'size'], order: 'ascend' })).toBe('torrent.size ASC')
  })

  it('takes the first sorted column of a multi-column sorter', () => {
    expect(
      toOrderBy([
        { field: 'size', order: null },
        { field: 'uploaded', order: 'descend' },
      ]),
    ).toBe('uploaded DESC')
  })

  it('accepts a Pro-style { field: order } map', () => {
    expect(toOrderBy({ seedTimeSec: 'ascend' })).toBe('seedTimeSec ASC')
    expect(toOrderBy({ seedTimeSec: null })).toBeUndefined()
  })

  it('is undefined without a sort', () => {
    expect(toOrderBy(undefined)).toBeUndefined()
    expect(toOrderBy({})).toBeUndefined()
    expect(toOrderBy({ field: 'size', order: undefined })).toBeUndefined()
    expect(toOrderBy([])).toBeUndefined()
  })
})

describe('toPagedInput', () => {
  it('renames current to page, drops keyword and empty filters, adds orderBy', () => {
    expect(
      toPagedInput(
        { current: 3, pageSize: 50, keyword: 'abc', status: 3, torrentName: '', seedType: undefined, claimState: null },
        { field: 'size', order: 'descend' },
      ),
    ).toEqual({ page: 3, pageSize: 50, status: 3, orderBy: 'size DESC' })
  })

  it('defaults to the first page and omits orderBy without a sort', () => {
    const input = toPagedInput({})
    expect(input).toEqual({ page: 1, pageSize: 20 })
    expect('orderBy' in input).toBe(false)
  })
})

describe('pagedRequest', () => {
  it('sends the converted payload and resolves { data, total, success }', async () => {
    api.handle(PAGED, ok({ list: [{ id: 1 }, { id: 2 }], total: 42 }))
    const result = await pagedRequest(PAGED, { current: 2, pageSize: 10, keyword: 'x', status: 3 }, { field: 'size', order: 'ascend' })
    expect(api.call).toHaveBeenCalledWith(PAGED, { page: 2, pageSize: 10, status: 3, orderBy: 'size ASC' })
    expect(result).toEqual({ data: [{ id: 1 }, { id: 2 }], total: 42, success: true })
  })

  it('resolves { data: [], total: 0, success: false } on failure, with the toast', async () => {
    api.handle(PAGED, fail(400, '只能按 size 排序，方向为 ASC 或 DESC'))
    await expect(pagedRequest(PAGED, { current: 1, pageSize: 20 })).resolves.toEqual({ data: [], total: 0, success: false })
    expect(toast.error).toHaveBeenCalledWith('只能按 size 排序，方向为 ASC 或 DESC')
  })

  it('also navigates to /login on 401', async () => {
    api.handle(PAGED, fail(401, '请先登录'))
    await expect(pagedRequest(PAGED, {})).resolves.toMatchObject({ success: false })
    expect(navigate).toHaveBeenCalledWith('/login?redirect=%2Ftask%3Fstatus%3D3', { replace: true })
  })
})
