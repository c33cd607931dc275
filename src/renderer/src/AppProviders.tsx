/** Theme, locale, form messages, toast context and data cache around the whole app. */
import { useEffect, useLayoutEffect, useMemo, type ReactNode } from 'react'
import { App as AntApp, ConfigProvider, theme } from 'antd'
import zhCN from 'antd/locale/zh_CN'
import { SWRConfig, type SWRConfiguration } from 'swr'
import './locales/dayjs'
import { swrConfig } from './config/swr'
import { themeConfig } from './config/theme'
import { validateMessages } from './locales/validateMessages'
import { useSettingsStore } from './stores/settings'
import { bindMessageApi } from './utils/feedback'

/** Hands antd's context-aware message API to non-component code (services/request). */
function FeedbackBinder() {
  const { message } = AntApp.useApp()
  useLayoutEffect(() => {
    bindMessageApi(message)
    return () => bindMessageApi(null)
  }, [message])
  return null
}

/** Paints the page behind the app in the theme's colours (no white edges in dark mode). */
function DocumentTheme({ dark }: { dark: boolean }) {
  const { token } = theme.useToken()
  useEffect(() => {
    document.documentElement.style.colorScheme = dark ? 'dark' : 'light'
    document.body.style.margin = '0'
    document.body.style.background = token.colorBgLayout
  }, [dark, token.colorBgLayout])
  return null
}

export function AppProviders({ children }: { children: ReactNode }) {
  const navTheme = useSettingsStore((state) => state.navTheme)
  const config = useMemo(() => themeConfig(navTheme), [navTheme])
  // A cache per mount: the app mounts once; each test render starts empty.
  const swrValue = useMemo<SWRConfiguration>(() => ({ ...swrConfig, provider: () => new Map() }), [])
  return (
    <ConfigProvider locale={zhCN} theme={config} form={{ validateMessages }} button={{ autoInsertSpace: false }}>
      <DocumentTheme dark={navTheme === 'realDark'} />
      <AntApp>
        <FeedbackBinder />
        <SWRConfig value={swrValue}>{children}</SWRConfig>
      </AntApp>
    </ConfigProvider>
  )
}
