/**
 * The 站点 UID field of the member form: a search over the synced site users by name or uid
 * (site.users, asked 300 ms after the last keystroke). A site user already tied to another account
 * is shown but cannot be picked, marked 已是保种员 or 已是管理员 by that account's role. A typed number is always offered as a uid of its own, so a
 * console without synced site users (demo, a fresh push-ingest setup) still takes a uid.
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react'
import { Flex, Select, Spin, Tag } from 'antd'
import type { SiteUserOption } from '@shared/entities'
import { inactiveAccountNames, roleLabels } from '@shared/enums'
import { READ_ONCE, useLoad } from '@renderer/hooks/useApi'
import { siteUsers } from '@renderer/services/site'
import { siteUidMax, siteUserKeywordMax } from '@renderer/utils/formLimits'
import { toAsciiNumber } from '@renderer/utils/numberText'

export const SEARCH_DEBOUNCE_MS = 300
const MAX_UID = siteUidMax
const MAX_KEYWORD = siteUserKeywordMax

/** Typed digits as ASCII (full-width `１２３` too), or null when the text is not all digits (a name). */
function typedDigits(text: string): string | null {
  const digits = toAsciiNumber(text.trim())
  return /^\d+$/.test(digits) ? digits : null
}

/** The uid a typed text stands for, or null when it is not one. */
export function parseUid(text: string): number | null {
  const digits = typedDigits(text)
  if (digits === null || digits.length > 10) return null
  const uid = Number(digits)
  return uid >= 1 && uid <= MAX_UID ? uid : null
}

export const siteUserLabel = (user: Pick<SiteUserOption, 'uid' | 'username'>) => `${user.username} (UID ${user.uid})`

interface Option {
  value: number
  label: ReactNode
  title: string
  disabled?: boolean
}

export interface SiteUserSelectProps {
  id?: string
  value?: number | null
  onChange?(value: number | null): void
  /** The member being edited: their own site user is not "taken". */
  memberId?: number
}

export default function SiteUserSelect({ id, value, onChange, memberId }: SiteUserSelectProps) {
  const [search, setSearch] = useState('')
  // Digits are asked as ASCII (the server finds a uid by them); a name as typed.
  const keyword = (typedDigits(search) ?? search.trim()).slice(0, MAX_KEYWORD)
  /** Labels of uids seen (results, the value's own lookup), so the chosen one shows its name. */
  const [labels, setLabels] = useState<Record<number, string>>({})

  // The current value's name (an edited member's uid): looked up once.
  const current = value ?? null
  const knownCurrent = current !== null && labels[current] !== undefined
  useLoad('site.users', current === null || knownCurrent ? null : String(current), siteUsers, {
    ...READ_ONCE,
    onSuccess: (list) => {
      if (current === null) return
      const user = list.find((u) => u.uid === current)
      setLabels((seen) => ({ ...seen, [current]: user ? siteUserLabel(user) : `UID ${current}` }))
    },
  })

  // The search, 300 ms after the last keystroke: until then the previous keyword's answer stays.
  const [asked, setAsked] = useState('')
  useEffect(() => {
    const timer = setTimeout(() => setAsked(keyword), keyword ? SEARCH_DEBOUNCE_MS : 0)
    return () => clearTimeout(timer)
  }, [keyword])
  const results = useLoad('site.users', keyword && asked ? asked : null, siteUsers, {
    ...READ_ONCE,
    onSuccess: (list) => setLabels((seen) => ({ ...seen, ...Object.fromEntries(list.map((u) => [u.uid, siteUserLabel(u)])) })),
  })
  const found = keyword && asked ? (results.data ?? null) : null
  const searching = keyword !== '' && (asked !== keyword || results.isLoading)

  const typedUid = parseUid(search)
  const options = useMemo<Option[]>(() => {
    if (!search.trim())
      return current === null
        ? []
        : [{ value: current, label: labels[current] ?? `UID ${current}`, title: labels[current] ?? `UID ${current}` }]
    const list: Option[] = (found ?? []).map((user) => {
      const label = siteUserLabel(user)
      const taken = user.memberId !== null && user.memberId !== memberId
      // Who holds it: an admin's account is a 管理员, not a 保种员; a 已删除 or 封禁 one says so (restore it instead).
      const state = user.memberStatus == null ? undefined : inactiveAccountNames[user.memberStatus]
      const holder = `已是${roleLabels[user.memberRole ?? 'normal']}${state ? `（${state}）` : ''}`
      return taken
        ? {
            value: user.uid,
            title: `${label} ${holder}`,
            disabled: true,
            label: (
              <Flex justify="space-between" gap={8}>
                <span>{label}</span>
                <Tag>{holder}</Tag>
              </Flex>
            ),
          }
        : { value: user.uid, label, title: label }
    })
    if (typedUid !== null && !list.some((option) => option.value === typedUid))
      list.push({ value: typedUid, label: `使用 UID ${typedUid}`, title: `使用 UID ${typedUid}` })
    return list
  }, [search, found, typedUid, current, labels, memberId])

  const pick = (next: number | null) => {
    if (next !== null && labels[next] === undefined) setLabels((seen) => ({ ...seen, [next]: `UID ${next}` }))
    onChange?.(next)
    setSearch('')
  }

  const notFound = searching ? (
    <Spin size="small" />
  ) : !search.trim() ? (
    '输入站点用户名或 UID 搜索'
  ) : typedDigits(search) !== null && typedUid === null ? (
    `UID 应为 1 到 ${MAX_UID} 之间的整数`
  ) : (
    '没有匹配的站点用户'
  )

  return (
    <Select<number | null, Option>
      id={id}
      value={current}
      options={options}
      allowClear
      placeholder="输入站点用户名或 UID 搜索"
      showSearch={{ filterOption: false, onSearch: setSearch, searchValue: search }}
      loading={searching}
      notFoundContent={notFound}
      onChange={(next) => pick(next ?? null)}
      // A uid typed and left without picking it (straight to 保存 with the mouse) is taken, as the field offers it —
      // unless it is another account's (shown 已是…, not pickable): then the box keeps what it had.
      onBlur={() => {
        if (typedUid === null || typedUid === current) return
        if (!options.some((option) => option.value === typedUid && option.disabled)) pick(typedUid)
      }}
      style={{ width: '100%' }}
    />
  )
}
