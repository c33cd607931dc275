/**
 * Password hashing with scrypt (memory-hard, in node:crypto). A hash is self-describing —
 * `scrypt$N$r$p$salt$hash` (salt and hash base64) — so the cost can be raised later: old hashes
 * still verify, and `needsRehash` tells the login to store a new one.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto'

export interface ScryptParams {
  /** CPU/memory cost, a power of two. */
  N: number
  r: number
  p: number
}

/** 2^15 × 8 × 128 B = 32 MiB and ~50–100 ms per hash here: slow for a guesser, fine for a login. */
export const defaultScryptParams: ScryptParams = { N: 2 ** 15, r: 8, p: 1 }

const SALT_BYTES = 16
const KEY_BYTES = 32
/** Upper bound of N we accept from a stored hash, so a corrupt row cannot make us allocate gigabytes. */
const MAX_N = 2 ** 20

function derive(password: string, salt: Buffer, { N, r, p }: ScryptParams, keylen: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // scrypt needs 128·N·r bytes; Node's default cap (32 MiB) is exactly the default cost, so lift it.
    scrypt(password.normalize('NFC'), salt, keylen, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    )
  })
}

export async function hashPassword(password: string, params: ScryptParams = defaultScryptParams): Promise<string> {
  const salt = randomBytes(SALT_BYTES)
  const key = await derive(password, salt, params, KEY_BYTES)
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$')
}

interface ParsedHash {
  params: ScryptParams
  salt: Buffer
  key: Buffer
}

function parseHash(stored: string): ParsedHash | null {
  const parts = stored.split('$')
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null
  const [N, r, p] = parts.slice(1, 4).map(Number)
  const isPow2 = Number.isInteger(N) && N > 1 && N <= MAX_N && (N & (N - 1)) === 0
  if (!isPow2 || !Number.isInteger(r) || r < 1 || r > 32 || !Number.isInteger(p) || p < 1 || p > 16) return null
  const salt = Buffer.from(parts[4], 'base64')
  const key = Buffer.from(parts[5], 'base64')
  if (salt.length < 8 || key.length < 16) return null
  return { params: { N, r, p }, salt, key }
}

/** True when `password` matches `stored`. A malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored)
  if (!parsed) return false
  const key = await derive(password, parsed.salt, parsed.params, parsed.key.length)
  return timingSafeEqual(key, parsed.key)
}

/** True when `stored` was made with other parameters than `params` (or is unreadable). */
export function needsRehash(stored: string, params: ScryptParams = defaultScryptParams): boolean {
  const parsed = parseHash(stored)
  return !parsed || parsed.params.N !== params.N || parsed.params.r !== params.r || parsed.params.p !== params.p
}

const dummyHashes = new Map<string, Promise<string>>()

/**
 * Spends the same time as a real verification, for logins of unknown users: the answer's timing
 * must not reveal which usernames exist.
 */
export async function dummyVerify(password: string, params: ScryptParams = defaultScryptParams): Promise<void> {
  const id = `${params.N}/${params.r}/${params.p}`
  let hash = dummyHashes.get(id)
  if (!hash) {
    hash = hashPassword(randomBytes(12).toString('base64'), params)
    dummyHashes.set(id, hash)
  }
  await verifyPassword(password, await hash)
}

/** A random password of `length` characters without look-alikes (0/O, 1/l/I), for the first admin. */
export function randomPassword(length = 16): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789'
  // 256 % 57 ≠ 0, so reject the top of the byte range to keep every character equally likely.
  const limit = 256 - (256 % alphabet.length)
  let out = ''
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit && out.length < length) out += alphabet[byte % alphabet.length]
    }
  }
  return out
}
