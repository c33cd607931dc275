import type { LoginInfo } from '@shared/entities'
import { useUserStore } from '@renderer/stores/user'
import type { SWRResponse } from 'swr'
import type { RequestError } from '@renderer/services/request'
import { useApi } from './useApi'

function remember(user: LoginInfo) {
  useUserStore.getState().setCurrentUser(user)
}

/**
 * The current user (GET /user/login-info), fetched silently: a failure is the root layout's cue
 * to go to the login page, not an error toast. The user store is filled in the same update as
 * the data, so role-guarded pages never see a missing user.
 */
export function useLoginInfo(): SWRResponse<LoginInfo, RequestError> {
  return useApi('user.loginInfo', undefined, { silent: true, shouldRetryOnError: false, onSuccess: remember })
}
