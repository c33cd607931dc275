/** The NexusPHP site's database errors as the admin reads them (Chinese, keeping the server's own words). */
import { tlsFailure } from '../sources/nexusphp/tls'

const deniedCodes = new Set([
  'ER_TABLEACCESS_DENIED_ERROR',
  'ER_COLUMNACCESS_DENIED_ERROR',
  'ER_DBACCESS_DENIED_ERROR',
  'ER_ACCESS_DENIED_ERROR',
  'ER_SPECIFIC_ACCESS_DENIED_ERROR',
])
const overflowCodes = new Set(['ER_WARN_DATA_OUT_OF_RANGE', 'ER_DATA_OUT_OF_RANGE', 'ER_NUMERIC_VALUE_OUT_OF_RANGE'])

const codeOf = (error: unknown) => (error as { code?: string } | undefined)?.code ?? ''
export const isConnectionLost = (error: unknown) =>
  Boolean((error as { fatal?: boolean } | undefined)?.fatal) ||
  /ECONN|EPIPE|PROTOCOL_|ETIMEDOUT|ER_CONNECTION_KILLED|ER_SERVER_SHUTDOWN/.test(codeOf(error))

const words = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** Chinese reason for a failed statement, keeping the server's own words. */
export function writeErrorReason(error: unknown): string {
  const code = codeOf(error)
  if (deniedCodes.has(code)) return `站点写入账号缺少权限（GRANT 见 README「发放到站点」）：${words(error)}`
  if (overflowCodes.has(code)) return `魔力值超出站点字段的上限：${words(error)}`
  if (code === 'ER_NO_SUCH_TABLE') return `站点数据库缺少数据表：${words(error)}`
  const tls = tlsFailure(error)
  if (tls) return `无法连接站点数据库：${tls}：${words(error)}`
  if (isConnectionLost(error)) return `与站点数据库的连接中断：${words(error)}`
  return `写入站点失败：${words(error)}`
}
