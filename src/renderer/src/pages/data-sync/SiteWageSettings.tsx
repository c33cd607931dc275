/**
 * 「NexusPHP 认领结算」 against the site's own bonus and claim settings (`SyncSite.wageDifferences`):
 * each setting the rules do not match, and 采用站点的设置 — a new rule version with the site's value in
 * every field the rules have (the site's min size and zero-bonus tag have none).
 */
import { useState } from 'react'
import { App, Alert, Button, Typography } from 'antd'
import type { RuleBody, Rules, SyncSite } from '@shared/entities'
import { useSetReads } from '@renderer/hooks/useApi'
import { getRules, saveRules } from '@renderer/services/config'
import { toastSuccess } from '@renderer/utils/feedback'

export type WageDifference = NonNullable<SyncSite['wageDifferences']>[number]

/** The rules with the site's value in each field it has one for (the version is the server's to give). */
export function withSiteValues(rules: Rules, differences: readonly WageDifference[]): RuleBody {
  const { version: _version, ...body } = rules
  const next: Record<string, unknown> = { ...body }
  // The server checks the saved body against the contract like any other save.
  for (const d of differences) if (d.field !== null && d.siteValue !== null) next[d.field] = d.siteValue
  return next as RuleBody
}

export default function SiteWageSettings({ differences, onApplied }: { differences: WageDifference[]; onApplied: () => void }) {
  const { modal } = App.useApp()
  const [applying, setApplying] = useState(false)
  const setReads = useSetReads()
  const adoptable = differences.filter((d) => d.field !== null)

  function confirmAdopt() {
    modal.confirm({
      title: '把规则改成站点的设置？',
      content: (
        <Typography.Paragraph style={{ marginBottom: 0 }}>
          将把{adoptable.map((d) => `「${d.label}」改为 ${d.site}`).join('、')}，保存为新的规则版本（记入操作日志）；其余规则不变。
        </Typography.Paragraph>
      ),
      okText: '保存',
      cancelText: '取消',
      onOk: async () => {
        setApplying(true)
        try {
          const current = await getRules()
          const saved = await saveRules({ ...withSiteValues(current, adoptable), baseVersion: current.version })
          // 官种设置 shows the new version, if it is opened next, without waiting for its own re-read.
          setReads('config.rules', saved)
          toastSuccess(`已保存为规则版本 v${saved.version}`)
          onApplied()
        } catch {
          // request() showed the server's message
        } finally {
          setApplying(false)
        }
      },
    })
  }

  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginTop: 16 }}
      title="「NexusPHP 认领结算」与站点自己的魔力设置不一致"
      description={
        <>
          <div>站点改过这些设置，按当前规则算出的工资会与站点自己结算的不同：</div>
          <ul style={{ margin: '4px 0 0', paddingInlineStart: 20 }}>
            {differences.map((d) => (
              <li key={d.setting}>
                {d.label}：站点 {d.site}（{d.setting}），规则 {d.rules}
              </li>
            ))}
          </ul>
        </>
      }
      action={
        adoptable.length > 0 && (
          <Button size="small" loading={applying} onClick={confirmAdopt} data-testid="adopt-site-wage-settings">
            采用站点的设置
          </Button>
        )
      }
      data-testid="sync-site-wage-warning"
    />
  )
}
