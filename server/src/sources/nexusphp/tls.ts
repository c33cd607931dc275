/**
 * TLS to the site's database, asked for in its URL the way the MySQL client names it:
 *   mysql://console:…@db.example.org:3306/nexusphp?ssl-mode=VERIFY_IDENTITY&ssl-ca=/etc/ssl/site-ca.pem
 *
 * - absent or DISABLED: no TLS (the site's database on the same host or a private network);
 * - REQUIRED: encrypted, the server's certificate not checked (a passive listener reads nothing; an
 *   active one in between is not stopped);
 * - VERIFY_CA: the certificate must chain to `ssl-ca` (or the system's CAs), any host name;
 * - VERIFY_IDENTITY: VERIFY_CA and the certificate names the host of the URL (a host name: with an
 *   address there is no name to check, so the URL is refused).
 * Over the open Internet the write account (it can raise any member's bonus) wants VERIFY_IDENTITY.
 * An unknown parameter is refused rather than ignored: a typo must not mean "no TLS".
 */
import { readFileSync } from 'node:fs'
import { isIP } from 'node:net'
import type { SslOptions } from 'mysql2'

const MODES = ['DISABLED', 'REQUIRED', 'VERIFY_CA', 'VERIFY_IDENTITY'] as const
type SslMode = (typeof MODES)[number]
const PARAMETERS = new Set(['ssl-mode', 'ssl-ca'])

/** The ssl option of a pool for `url`'s query string; throws a message naming `variable` when it is wrong. */
export function sslOptions(url: URL, variable: string): SslOptions | undefined {
  for (const name of url.searchParams.keys()) {
    if (!PARAMETERS.has(name)) {
      throw new Error(
        `${variable} 中的参数 ${name} 无法识别（可用：ssl-mode=DISABLED|REQUIRED|VERIFY_CA|VERIFY_IDENTITY，ssl-ca=CA 证书文件路径）`,
      )
    }
  }
  const given = (url.searchParams.get('ssl-mode') ?? 'DISABLED').toUpperCase()
  if (!(MODES as readonly string[]).includes(given)) {
    throw new Error(`${variable} 的 ssl-mode=${given} 无法识别（可用：${MODES.join('、')}）`)
  }
  const mode = given as SslMode
  const caFile = url.searchParams.get('ssl-ca')
  if (mode === 'DISABLED') {
    if (caFile) throw new Error(`${variable} 设置了 ssl-ca 但没有开启 TLS（加上 ssl-mode=VERIFY_IDENTITY）`)
    return undefined
  }
  if (mode === 'REQUIRED' && caFile) {
    throw new Error(`${variable} 设置了 ssl-ca 但 ssl-mode=REQUIRED 不核对证书（要核对请用 VERIFY_CA 或 VERIFY_IDENTITY）`)
  }
  let ca: string | undefined
  if (caFile) {
    try {
      ca = readFileSync(caFile, 'utf8')
    } catch (error) {
      throw new Error(`${variable} 的 ssl-ca 文件无法读取：${caFile}（${(error as NodeJS.ErrnoException).code ?? String(error)}）`)
    }
  }
  if (mode === 'REQUIRED') return { rejectUnauthorized: false }
  // mysql2 hands Node no server name for an address, and Node then checks the certificate for "localhost".
  if (mode === 'VERIFY_IDENTITY' && isIP(url.hostname.replace(/^\[|\]$/g, ''))) {
    throw new Error(`${variable} 用 IP 地址连接时无法核对证书上的主机名：改用证书上的主机名，或用 ssl-mode=VERIFY_CA`)
  }
  // mysql2 checks the chain with rejectUnauthorized, and the name only when asked (verifyIdentity).
  return { ...(ca === undefined ? {} : { ca }), rejectUnauthorized: true, verifyIdentity: mode === 'VERIFY_IDENTITY' }
}

const codeOf = (error: unknown) => String((error as { code?: unknown } | undefined)?.code ?? '')

/** Why a TLS connection failed, in Chinese, or null when `error` is not about TLS. */
export function tlsFailure(error: unknown): string | null {
  const code = codeOf(error)
  if (code === 'HANDSHAKE_NO_SSL_SUPPORT') return '站点数据库服务器没有开启 TLS（去掉 ssl-mode，或在服务器上配置证书）'
  if (code === 'HANDSHAKE_SSL_ERROR' || /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/.test(code)) {
    return '服务器证书未通过校验（检查 ssl-ca 是否为签发它的 CA、地址中的主机名是否在证书上）'
  }
  return null
}
