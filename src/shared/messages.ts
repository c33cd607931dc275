/** Fixed Chinese texts that more than one side of the app must agree on. */
export const messages = {
  notLoggedIn: '请先登录',
  forbidden: '无权限',
  notFound: '未找到',
  requestFailed: '请求出错',
  serverError: '服务器内部错误，请稍后再试',
  wrongCredentials: '用户名或密码错误',
  accountBanned: '账号已被封禁',
  tooManyAttempts: '登录尝试过于频繁，请稍后再试',
  tooManyPasswordAttempts: '原密码错误次数过多，请稍后再试',
  networkError: '无法连接服务器，请检查服务器地址和网络',
  timeout: '请求超时，请稍后再试',
  badServerAnswer: '服务器返回的数据格式不正确',
  invalidJson: '请求体不是合法的 JSON',
  bodyTooLarge: '请求体过大',
  endpointNotFound: '接口不存在',
} as const
