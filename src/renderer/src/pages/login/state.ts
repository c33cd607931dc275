/** What the login page is told on the way (BasicLayout): the first check of the saved login got no answer. */
export interface LoginPageState {
  /** Why (无法连接服务器…): the saved login may well still be good once the server answers. */
  unreachable?: string
  /** Why the saved login was refused, where the server said more than 请先登录 (账号已被封禁, 登录已过期…). */
  ended?: string
}
