import { describe, expect, it } from 'vitest'
import { bundledChangelog, compareVersions, inlineTokens, parseChangelog } from './changelog'

const sample = `# 更新日志

介绍文字，不属于任何版本。

## [0.9.0] - 2026-01-05

### 修复
- 旧的修复

## [Unreleased]

- 尚未发布

## [0.10.0] - 2026-02-01

### 新增
- 工资计算：预览、生成、发放
  和导出（续行）。
  - 子项 \`xlsx\`
- **重要** 见 [文档](https://example.com/docs)

### 变更
说明段落
第二行。

## [0.10.0-beta.1] - 2026-01-20
- 测试版

[0.10.0]: https://example.com/compare
`

describe('changelog parser', () => {
  it('orders releases newest first whatever the file order, Unreleased on top', () => {
    expect(parseChangelog(sample).map((release) => release.version)).toEqual(['Unreleased', '0.10.0', '0.10.0-beta.1', '0.9.0'])
    expect(compareVersions('0.10.0', '0.9.0')).toBeGreaterThan(0)
    expect(compareVersions('1.0.0-beta', '1.0.0')).toBeLessThan(0)
  })

  it('reads dates, groups, bullets with wrapped lines and nesting, and paragraphs', () => {
    const release = parseChangelog(sample).find((item) => item.version === '0.10.0')!
    expect(release.date).toBe('2026-02-01')
    expect(release.groups.map((group) => group.title)).toEqual(['新增', '变更'])
    const list = release.groups[0]!.blocks[0]!
    expect(list.type).toBe('list')
    if (list.type !== 'list') return
    expect(list.items.map((item) => item.text)).toEqual([
      '工资计算：预览、生成、发放和导出（续行）。',
      '**重要** 见 [文档](https://example.com/docs)',
    ])
    expect(list.items[0]!.children.map((item) => item.text)).toEqual(['子项 `xlsx`'])
    expect(release.groups[1]!.blocks).toEqual([{ type: 'paragraph', text: '说明段落第二行。' }])
  })

  it('splits inline code, bold and links into tokens (never HTML)', () => {
    expect(inlineTokens('用 `GET /health` 和 **粗体**，见 [文档](https://x.y) <b>不是标签</b>')).toEqual([
      { type: 'text', text: '用 ' },
      { type: 'code', text: 'GET /health' },
      { type: 'text', text: ' 和 ' },
      { type: 'strong', text: '粗体' },
      { type: 'text', text: '，见 ' },
      { type: 'link', text: '文档', href: 'https://x.y' },
      { type: 'text', text: ' <b>不是标签</b>' },
    ])
  })

  it('bundles the repository CHANGELOG.md, whose newest release is the package version', async () => {
    const { version } = (await import('../../../../package.json')).default as { version: string }
    const releases = parseChangelog(bundledChangelog).filter((release) => /^\d/.test(release.version))
    expect(releases[0]!.version).toBe(version)
    expect(releases[0]!.groups.some((group) => group.blocks.length > 0)).toBe(true)
  })
})
