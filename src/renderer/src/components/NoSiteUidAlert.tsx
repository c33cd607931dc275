/**
 * A member whose account has no site UID: the console reads seeding from the site by UID, so their 我的任务
 * and 首页 stay empty until an admin sets it. Said where they look, instead of a bare 暂无数据 or zeros.
 */
import { Alert } from 'antd'
import type { LoginInfo } from '@shared/entities'

export const NO_SITE_UID_TITLE = '你的账号还没有绑定站点 UID'
export const NO_SITE_UID_HINT =
  '控制台按站点 UID 读取做种数据，绑定之前这里不会有你的做种记录、统计和工资。请联系管理员在「保种员」中为你的账号填写站点 UID。'

/** Whether `user` is a member the console cannot see seeding for (admins manage the team and are not told). */
export const lacksSiteUid = (user: LoginInfo | null): boolean => user !== null && user.role === 'normal' && user.siteUid === null

export default function NoSiteUidAlert({ user }: { user: LoginInfo | null }) {
  if (!lacksSiteUid(user)) return null
  return <Alert type="info" showIcon data-testid="no-site-uid" title={NO_SITE_UID_TITLE} description={NO_SITE_UID_HINT} />
}
