/**
 * The app's own release notes: CHANGELOG.md of the repository, bundled as text at build time
 * (Vite `?raw`), parsed into versions for the 更新日志 page. The parser knows the few shapes a
 * Keep-a-Changelog file uses — `## [version] - date` sections, `###` groups, bullet lists
 * (nested by indent, wrapped lines continued) and paragraphs; inline code, bold and links are
 * split into tokens the page renders as React elements (never as HTML).
 */
import compare from 'semver/functions/compare'
import valid from 'semver/functions/valid'
import changelogText from '../../../../CHANGELOG.md?raw'

export const bundledChangelog: string = changelogText

export type InlineToken = { type: 'text' | 'code' | 'strong'; text: string } | { type: 'link'; text: string; href: string }

export interface ChangelogBullet {
  text: string
  children: ChangelogBullet[]
}

export type ChangelogBlock = { type: 'list'; items: ChangelogBullet[] } | { type: 'paragraph'; text: string }

export interface ChangelogGroup {
  /** The `###` heading (新增, 修复…); null for content before the first heading. */
  title: string | null
  blocks: ChangelogBlock[]
}

export interface ChangelogRelease {
  version: string
  date: string | null
  groups: ChangelogGroup[]
}

const RELEASE = /^##\s+\[?([^\]\s]+)\]?(?:\s+[-–—]\s+(.+?))?\s*$/
const GROUP = /^###\s+(.+?)\s*$/
const BULLET = /^(\s*)[-*+]\s+(.*)$/

/** Joins a wrapped line: no space between CJK characters, one space otherwise. */
function joinWrapped(head: string, tail: string): string {
  const cjk = /[\u3000-\u9fff\uff00-\uffef]/
  return cjk.test(head.slice(-1)) || cjk.test(tail.charAt(0)) ? head + tail : `${head} ${tail}`
}

/**
 * Semantic versions as SemVer orders them (CHANGELOG.md says it follows them): 1.0.0-beta.2 < 1.0.0-beta.10 < 1.0.0;
 * `Unreleased` (or any non-version) is newest.
 */
export function compareVersions(a: string, b: string): number {
  const left = valid(a.replace(/^v/, ''))
  const right = valid(b.replace(/^v/, ''))
  if (!left || !right) return left ? -1 : right ? 1 : 0
  return compare(left, right)
}

/** Releases of the file, newest first (whatever order the file has them in). */
export function parseChangelog(markdown: string): ChangelogRelease[] {
  const releases: ChangelogRelease[] = []
  let release: ChangelogRelease | null = null
  let group: ChangelogGroup | null = null
  // The open list and, per indent level, the bullet that owns deeper bullets.
  let list: { type: 'list'; items: ChangelogBullet[] } | null = null
  let stack: { indent: number; bullet: ChangelogBullet }[] = []
  let paragraph: { type: 'paragraph'; text: string } | null = null

  const currentGroup = (): ChangelogGroup => {
    if (!group) {
      group = { title: null, blocks: [] }
      release!.groups.push(group)
    }
    return group
  }
  const closeBlocks = () => {
    list = null
    stack = []
    paragraph = null
  }

  for (const rawLine of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const line = rawLine.replace(/\s+$/, '')
    const releaseMatch = RELEASE.exec(line)
    if (releaseMatch) {
      release = { version: releaseMatch[1]!, date: releaseMatch[2]?.trim() || null, groups: [] }
      releases.push(release)
      group = null
      closeBlocks()
      continue
    }
    // Anything before the first release (the file's title and introduction) is not a release.
    if (!release) continue
    const groupMatch = GROUP.exec(line)
    if (groupMatch) {
      group = { title: groupMatch[1]!, blocks: [] }
      release.groups.push(group)
      closeBlocks()
      continue
    }
    if (line.trim() === '') {
      paragraph = null
      continue
    }
    // Link reference definitions (`[0.1.0]: https://…`) at the end of the file.
    if (/^\[[^\]]+\]:\s+\S+/.test(line)) continue
    const bulletMatch = BULLET.exec(line)
    if (bulletMatch) {
      paragraph = null
      const indent = bulletMatch[1]!.length
      const bullet: ChangelogBullet = { text: bulletMatch[2]!.trim(), children: [] }
      if (!list) {
        list = { type: 'list', items: [] }
        currentGroup().blocks.push(list)
      }
      while (stack.length > 0 && stack[stack.length - 1]!.indent >= indent) stack.pop()
      const parent = stack[stack.length - 1]
      if (parent) parent.bullet.children.push(bullet)
      else list.items.push(bullet)
      stack.push({ indent, bullet })
      continue
    }
    // An indented line under a bullet continues it (a wrapped line).
    const last = stack[stack.length - 1]
    if (last && /^\s+/.test(line)) {
      last.bullet.text = joinWrapped(last.bullet.text, line.trim())
      continue
    }
    if (paragraph) {
      paragraph.text = joinWrapped(paragraph.text, line.trim())
      continue
    }
    list = null
    stack = []
    paragraph = { type: 'paragraph', text: line.trim().replace(/^#+\s*/, '') }
    currentGroup().blocks.push(paragraph)
  }
  return releases.sort((a, b) => compareVersions(b.version, a.version))
}

/** Inline markdown → tokens: `code`, **bold**, [text](href); everything else is text. */
export function inlineTokens(text: string): InlineToken[] {
  const tokens: InlineToken[] = []
  const pattern = /`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\(([^)\s]+)\)/g
  let at = 0
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (match.index > at) tokens.push({ type: 'text', text: text.slice(at, match.index) })
    if (match[1] !== undefined) tokens.push({ type: 'code', text: match[1] })
    else if (match[2] !== undefined) tokens.push({ type: 'strong', text: match[2] })
    else tokens.push({ type: 'link', text: match[3]!, href: match[4]! })
    at = match.index + match[0].length
  }
  if (at < text.length) tokens.push({ type: 'text', text: text.slice(at) })
  return tokens
}
