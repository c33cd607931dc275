import { afterEach, describe, expect, it, vi } from 'vitest'
import { bindNavigation, loginPathFor, redirectTarget, redirectToLogin } from './navigation'

describe('loginPathFor', () => {
  it('remembers the page and its query', () => {
    expect(loginPathFor({ pathname: '/task', search: '?status=3' })).toBe('/login?redirect=%2Ftask%3Fstatus%3D3')
  })

  it('needs no redirect for the home page or the login page', () => {
    expect(loginPathFor({ pathname: '/', search: '' })).toBe('/login')
    expect(loginPathFor({ pathname: '/login', search: '?redirect=%2Ftask' })).toBe('/login')
  })
})

describe('redirectTarget', () => {
  it('returns the remembered in-app path', () => {
    expect(redirectTarget('?redirect=%2Ftask%3Fstatus%3D3')).toBe('/task?status=3')
  })

  it('falls back to / for anything else', () => {
    expect(redirectTarget('')).toBe('/')
    expect(redirectTarget('?redirect=https%3A%2F%2Fevil.example')).toBe('/')
    expect(redirectTarget('?redirect=%2F%2Fevil.example')).toBe('/')
    expect(redirectTarget('?redirect=%2Flogin')).toBe('/')
  })
})

describe('redirectToLogin', () => {
  afterEach(() => bindNavigation(null))

  it('is a no-op before a router is bound', () => {
    expect(() => redirectToLogin()).not.toThrow()
  })

  it('replaces the current entry with the login page', () => {
    const navigate = vi.fn()
    bindNavigation({ navigate, location: () => ({ pathname: '/salary', search: '' }) })
    redirectToLogin()
    expect(navigate).toHaveBeenCalledWith('/login?redirect=%2Fsalary', { replace: true })
  })
})
