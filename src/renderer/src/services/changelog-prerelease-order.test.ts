/**
 * Found by an outside tester (fixed since; the test keeps it so). 更新日志 with numbered pre-releases: a release engineer ships 0.4.0-beta.2 … 0.4.0-beta.10 and writes them into
 * CHANGELOG.md. The 更新日志 page listed 0.4.0-beta.9 and 0.4.0-beta.2 ABOVE 0.4.0-beta.10 — the newest beta
 * shows up below older ones, because pre-release tags are compared as plain strings ("beta.10" < "beta.2").
 *
 * product.md §3 (/changelog): "The app's own release notes (CHANGELOG.md of the repo, bundled), newest first." The
 * file promises semantic versions (CHANGELOG.md header: 版本号遵循语义化版本), where numeric pre-release
 * identifiers compare numerically (SemVer §11: 1.0.0-beta.2 < 1.0.0-beta.10).
 */
import { describe, expect, it } from 'vitest'
import { compareVersions, parseChangelog } from './changelog'

const sample = `# 更新日志

## [0.4.0-beta.2] - 2026-12-01

### 新增
- 第二个测试版。

## [0.4.0-beta.10] - 2026-12-20

### 新增
- 第十个测试版。

## [0.4.0-beta.9] - 2026-12-15

### 修复
- 第九个测试版。
`

describe('更新日志: numbered pre-releases, newest first', () => {
  it('lists 0.4.0-beta.10 above 0.4.0-beta.9 and 0.4.0-beta.2', () => {
    expect(parseChangelog(sample).map((release) => release.version)).toEqual(['0.4.0-beta.10', '0.4.0-beta.9', '0.4.0-beta.2'])
  })

  it('compares numeric pre-release identifiers as numbers (SemVer §11)', () => {
    expect(compareVersions('1.0.0-beta.10', '1.0.0-beta.2')).toBeGreaterThan(0)
    expect(compareVersions('1.0.0-rc.1', '1.0.0-rc.11')).toBeLessThan(0)
  })
})
