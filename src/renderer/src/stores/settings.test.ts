import { describe, expect, it, vi } from 'vitest'
import { bindMessageApi } from '@renderer/utils/feedback'
import { fail, installFakeApi } from '@renderer/test/fakeApi'
import { useSettingsStore } from './settings'

describe('settings store', () => {
  it('starts dark and not loaded', () => {
    expect(useSettingsStore.getState()).toMatchObject({ loaded: false, navTheme: 'realDark' })
  })

  it('loads the theme and server address from main', async () => {
    installFakeApi({ settings: { navTheme: 'light', serverAddress: 'http://10.0.0.2:8080/api/v1' } })
    await useSettingsStore.getState().load()
    expect(useSettingsStore.getState()).toMatchObject({ loaded: true, navTheme: 'light', serverAddress: 'http://10.0.0.2:8080/api/v1' })
  })

  it('falls back to the defaults when main cannot answer', async () => {
    const api = installFakeApi()
    api.getSettings.mockRejectedValueOnce(new Error('no bridge'))
    await useSettingsStore.getState().load()
    expect(useSettingsStore.getState()).toMatchObject({ loaded: true, navTheme: 'realDark' })
  })

  it('saves the theme through setSettings, so a reload reads it back', async () => {
    const api = installFakeApi()
    await useSettingsStore.getState().setNavTheme('light')
    expect(api.setSettings).toHaveBeenCalledWith({ navTheme: 'light' })
    expect(useSettingsStore.getState().navTheme).toBe('light')

    // "Reload": a fresh store reads what main kept.
    useSettingsStore.setState(useSettingsStore.getInitialState(), true)
    await useSettingsStore.getState().load()
    expect(useSettingsStore.getState().navTheme).toBe('light')
  })

  it('reverts and toasts when main refuses the theme', async () => {
    const api = installFakeApi()
    api.setSettings.mockResolvedValueOnce(fail(400, '主题：无效的选项'))
    const toast = { error: vi.fn() }
    bindMessageApi(toast as never)
    await useSettingsStore.getState().setNavTheme('light')
    expect(useSettingsStore.getState().navTheme).toBe('realDark')
    expect(toast.error).toHaveBeenCalledWith('主题：无效的选项')
  })

  it('keeps the normalised server address main answers with', async () => {
    installFakeApi()
    const result = await useSettingsStore.getState().saveServerAddress('http://10.0.0.9:8080')
    expect(result.ok).toBe(true)
    // The fake stores what it is given; main would normalise, the store keeps main's answer.
    expect(useSettingsStore.getState().serverAddress).toBe('http://10.0.0.9:8080')
  })
})
