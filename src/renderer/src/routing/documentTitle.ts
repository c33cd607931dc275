export const APP_TITLE = '保种管理台'

/** `首页` → `首页 - 保种管理台`; no title → `保种管理台`. */
export function documentTitle(title: string | undefined): string {
  return title ? `${title} - ${APP_TITLE}` : APP_TITLE
}
