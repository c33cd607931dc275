/**
 * A named lock per member (GET_LOCK, held by the connection and so released by a dying process)
 * keeps two payouts — of this process or another — from working on one member at once.
 */
import type { Pool, PoolConnection, RowDataPacket } from 'mysql2/promise'
import { isConnectionLost, writeErrorReason } from './nexusphp-errors'
import type { MemberPayout, PayOutcome } from './target'

const LOCK_WAIT_SEC = 30

/** What a way of paying needs from the writer: its pool and the test hook called at each step. */
export interface PayContext {
  pool: Pool
  step: (name: string, member: MemberPayout) => Promise<void>
}

/** Runs `work` on one connection holding the member's named lock; `cutReason` turns an error thrown by `work` into the outcome. */
export async function withMemberLock(
  pool: Pool,
  uid: number,
  work: (conn: PoolConnection) => Promise<PayOutcome>,
  cutReason: (error: unknown) => PayOutcome,
): Promise<PayOutcome> {
  let conn: PoolConnection
  try {
    conn = await pool.getConnection()
  } catch (error) {
    return { state: 'failed', reason: writeErrorReason(error) }
  }
  let broken = false
  try {
    const [rows] = await conn.query<RowDataPacket[]>('SELECT GET_LOCK(?, ?) AS got', [`seeding-console:payout:${uid}`, LOCK_WAIT_SEC])
    if (Number(rows[0]?.got) !== 1) return { state: 'pending', reason: '另一个发放正在处理该会员，请稍后再试' }
    return await work(conn)
  } catch (error) {
    broken = isConnectionLost(error)
    return cutReason(error)
  } finally {
    if (broken) conn.destroy()
    else {
      await conn.query('SELECT RELEASE_LOCK(?)', [`seeding-console:payout:${uid}`]).catch(() => {})
      conn.release()
    }
  }
}
