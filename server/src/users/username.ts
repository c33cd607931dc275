/** Usernames are unique regardless of case: `Alice` and `alice` are the same account. */
export function usernameKey(username: string): string {
  return username.trim().toLowerCase()
}

/**
 * Cyrillic and Greek letters (lower case: the key is folded first) that look like a Latin letter in
 * upper or lower case — `аdmin` with a Cyrillic а, `ΑDMIN` with a Greek Α. A short list from Unicode's
 * confusables (UTS #39), for the scripts that can pass for Latin; other scripts look like nothing else.
 */
const latinLookalikes: Record<string, string> = {
  // Cyrillic
  а: 'a',
  в: 'b',
  ԁ: 'd',
  е: 'e',
  ё: 'e',
  һ: 'h',
  н: 'h',
  і: 'i',
  ї: 'i',
  ј: 'j',
  к: 'k',
  ӏ: 'l',
  м: 'm',
  о: 'o',
  р: 'p',
  ԛ: 'q',
  ѕ: 's',
  т: 't',
  у: 'y',
  ԝ: 'w',
  х: 'x',
  // Greek
  α: 'a',
  β: 'b',
  ε: 'e',
  ζ: 'z',
  η: 'h',
  ι: 'i',
  κ: 'k',
  μ: 'm',
  ν: 'n',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'y',
  χ: 'x',
  ς: 'σ',
  // Latin
  ı: 'i',
}

/** A Latin, Greek or Cyrillic letter's accents (after NFD), which a look-alike may add or drop (`admİn`). */
const marksOnAlphabets = /(\p{Script=Latin}|\p{Script=Greek}|\p{Script=Cyrillic})\p{M}+/gu

/**
 * What a username looks like, for refusing a new account that could pass for an existing one: width
 * and compatibility forms folded (NFKC: `ａｄｍｉｎ`, `𝐚𝐝𝐦𝐢𝐧`, `ﬁ`), case folded, accents on alphabetic
 * letters dropped, and Cyrillic and Greek look-alikes of Latin letters read as those. Two usernames
 * with the same key look (nearly) the same on screen. Not a login key: logins match `usernameKey`.
 */
export function usernameLookalikeKey(username: string): string {
  const folded = username.trim().normalize('NFKC').toLowerCase().normalize('NFD').replace(marksOnAlphabets, '$1')
  let key = ''
  for (const char of folded) key += latinLookalikes[char] ?? char
  return key.normalize('NFC')
}
