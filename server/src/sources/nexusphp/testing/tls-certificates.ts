/**
 * Certificates for a test site server with TLS, made with the openssl command: a CA, a server
 * certificate it signs for localhost and 127.0.0.1, and a second CA that signed nothing (a client trusting only it
 * must refuse the server). Null where the machine has no openssl.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface TestCertificates {
  dir: string
  ca: string
  otherCa: string
  serverCert: string
  serverKey: string
}

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']

function openssl(args: string[]): void {
  const run = spawnSync('openssl', args, { encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`openssl ${args[0]} failed: ${run.stderr}`)
}

export const hasOpenssl = (): boolean => spawnSync('openssl', ['version']).status === 0

export function makeTestCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'site-tls-'))
  const file = (name: string) => join(dir, name)
  for (const ca of ['ca', 'other-ca']) {
    openssl([
      'req',
      '-x509',
      ...EC,
      '-keyout',
      file(`${ca}.key`),
      '-out',
      file(`${ca}.pem`),
      '-days',
      '2',
      '-subj',
      `/CN=${ca} of a test site`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ])
  }
  openssl(['req', ...EC, '-keyout', file('server.key'), '-out', file('server.csr'), '-subj', '/CN=site database'])
  writeFileSync(file('server.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n')
  openssl([
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-out',
    file('server.pem'),
    '-days',
    '2',
    '-extfile',
    file('server.ext'),
  ])
  return { dir, ca: file('ca.pem'), otherCa: file('other-ca.pem'), serverCert: file('server.pem'), serverKey: file('server.key') }
}
