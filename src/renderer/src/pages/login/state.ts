/** What the login page is told on the way (BasicLayout): the first check of the saved login got no answer. */
export interface LoginPageState {
  /** Why (无法连接服务器…): the saved login may well still be good once the server answers. */
  unreachable?: string
}
