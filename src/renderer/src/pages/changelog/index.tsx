/**
 * 更新日志: the bundled CHANGELOG.md, newest release first, as a timeline of cards. The first
 * release is the version this build carries (marked 当前版本). Rendered from parsed tokens into
 * React elements — no HTML is ever injected.
 */
import { Fragment, useMemo } from 'react'
import { Card, Empty, Flex, Tag, Timeline, Typography, theme } from 'antd'
import {
  bundledChangelog,
  inlineTokens,
  parseChangelog,
  type ChangelogBlock,
  type ChangelogBullet,
  type ChangelogRelease,
} from '@renderer/services/changelog'

function Inline({ text }: { text: string }) {
  return (
    <>
      {inlineTokens(text).map((token, index) => {
        if (token.type === 'code')
          return (
            <Typography.Text key={index} code>
              {token.text}
            </Typography.Text>
          )
        if (token.type === 'strong') return <strong key={index}>{token.text}</strong>
        // Links stay text: the app does not navigate to outside pages.
        if (token.type === 'link')
          return (
            <Typography.Text key={index} underline title={token.href}>
              {token.text}
            </Typography.Text>
          )
        return <Fragment key={index}>{token.text}</Fragment>
      })}
    </>
  )
}

function Bullets({ items }: { items: ChangelogBullet[] }) {
  return (
    <ul style={{ margin: '4px 0', paddingInlineStart: 22 }}>
      {items.map((item, index) => (
        <li key={index} style={{ lineHeight: 1.8 }}>
          <Inline text={item.text} />
          {item.children.length > 0 && <Bullets items={item.children} />}
        </li>
      ))}
    </ul>
  )
}

function Block({ block }: { block: ChangelogBlock }) {
  if (block.type === 'list') return <Bullets items={block.items} />
  return (
    <Typography.Paragraph style={{ marginBottom: 8 }}>
      <Inline text={block.text} />
    </Typography.Paragraph>
  )
}

function ReleaseCard({ release, current }: { release: ChangelogRelease; current: boolean }) {
  return (
    <Card
      size="small"
      data-testid={`release-${release.version}`}
      title={
        <Flex align="center" gap={8}>
          <span>{/^\d/.test(release.version) ? `v${release.version}` : release.version}</span>
          {current && <Tag color="green">当前版本</Tag>}
          {release.date && (
            <Typography.Text type="secondary" style={{ fontWeight: 'normal' }}>
              {release.date}
            </Typography.Text>
          )}
        </Flex>
      }
    >
      {release.groups.length === 0 && <Typography.Text type="secondary">无说明</Typography.Text>}
      {release.groups.map((group, index) => (
        <div key={index} style={{ marginBottom: index < release.groups.length - 1 ? 12 : 0 }}>
          {group.title && (
            <Typography.Title level={5} style={{ marginTop: 0, marginBottom: 4 }}>
              {group.title}
            </Typography.Title>
          )}
          {group.blocks.map((block, blockIndex) => (
            <Block key={blockIndex} block={block} />
          ))}
        </div>
      ))}
    </Card>
  )
}

export function ChangelogView({ markdown }: { markdown: string }) {
  const releases = useMemo(() => parseChangelog(markdown), [markdown])
  const { token } = theme.useToken()
  // The first real version is this build's (an `Unreleased` section above it is not).
  const currentIndex = releases.findIndex((release) => /^v?\d/.test(release.version))
  if (releases.length === 0) return <Empty description="暂无更新日志" />
  return (
    <Timeline
      style={{ maxWidth: 960, paddingTop: 8 }}
      items={releases.map((release, index) => ({
        key: release.version,
        color: index === currentIndex ? token.colorPrimary : 'gray',
        content: <ReleaseCard release={release} current={index === currentIndex} />,
      }))}
    />
  )
}

export default function ChangelogPage() {
  return (
    <Flex vertical gap={16}>
      <Typography.Title level={4} style={{ margin: 0 }}>
        更新日志
      </Typography.Title>
      <ChangelogView markdown={bundledChangelog} />
    </Flex>
  )
}
