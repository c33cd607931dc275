/** Usernames are unique regardless of case: `Alice` and `alice` are the same account. */
export function usernameKey(username: string): string {
  return username.trim().toLowerCase()
}
