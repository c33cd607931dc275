import { describe, expect, it } from 'vitest'
import { configureLogFile, redactSecrets, type ConfigurableLog } from './logging'

describe('log redaction', () => {
  it.each([
    ['Access-Token: abcDEF123_-', 'abcDEF123_-'],
    ['headers {"access-token":"abcDEF123"}', 'abcDEF123'],
    ['{"username":"admin","password":"hunter2"}', 'hunter2'],
    ['{"oldPassword":"a1","newPassword":"b2"}', 'a1'],
    ['login?token=zzz999&x=1', 'zzz999'],
  ])('hides the secret in %s', (line, secret) => {
    const redacted = redactSecrets(line)
    expect(redacted).not.toContain(secret)
    expect(redacted).toContain('[已隐藏]')
  })

  it('leaves ordinary lines alone', () => {
    expect(redactSecrets('request user.loginInfo failed: connect ECONNREFUSED 127.0.0.1:8080')).toBe(
      'request user.loginInfo failed: connect ECONNREFUSED 127.0.0.1:8080',
    )
  })

  it('runs every message through the redaction hook, objects and errors included', () => {
    const hooks: (<M extends { data: unknown[] }>(message: M) => M)[] = []
    const log: ConfigurableLog = { transports: { file: { level: false, maxSize: 0 }, console: { level: 'silly' } }, hooks }
    configureLogFile(log, { dev: false })
    expect(log.transports.file).toEqual({ level: 'info', maxSize: 1024 * 1024 })
    expect(log.transports.console.level).toBe(false)
    const out = hooks[0]!({ data: ['token=abc', { password: 'p4ss' }, new Error('Access-Token: t0k')] })
    expect(JSON.stringify(out.data)).not.toMatch(/abc|p4ss|t0k/)
  })
})
