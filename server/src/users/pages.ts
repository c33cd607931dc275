/**
 * Read side of members and admins: the option list, the paged lists and the detail. Their seeding
 * figures come from member_seed_stats (kept by the derivation), so a page is one small join.
 */
import { AccountStatus } from '@shared/enums'
import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { ParsedInput } from '@shared/endpoints'
import type { User, UserDetail, UserOption } from '@shared/entities'
import type { DialectName } from '../db/database'
import type { DB } from '../db/schema'
import { binaryOrder, likeContains } from '../db/sql-fragments'
import { toIso } from '../db/time'
import { offsetOf, orderClause, type SortColumns, sortOf } from '../paging/order'
import { byStatusOf } from '../stats/all'

interface UserRowWithStats {
  id: number
  username: string
  role: 'admin' | 'normal'
  status: 0 | 1 | 2
  site_uid: number | null
  last_login_at: number | null
  remark: string
  created_at: number
  admin_since: number | null
  seeding_count: number | null
  seeding_size: number | null
  assigned_count: number | null
}

const userColumns = sql`u.id, u.username, u.role, u.status, u.site_uid, u.last_login_at, u.remark, u.created_at, u.admin_since,
  m.seeding_count, m.seeding_size, m.assigned_count`

function toUser(r: UserRowWithStats): User {
  return {
    id: r.id,
    username: r.username,
    role: r.role,
    status: r.status,
    siteUid: r.site_uid,
    lastLoginAt: toIso(r.last_login_at === null ? null : Number(r.last_login_at)),
    remark: r.remark,
    createdAt: toIso(Number(r.created_at)),
    adminSince: toIso(r.admin_since === null ? null : Number(r.admin_since)),
    seedingCount: Number(r.seeding_count ?? 0),
    seedingSize: Number(r.seeding_size ?? 0),
    assignedCount: Number(r.assigned_count ?? 0),
  }
}

/** Every member and admin who is not deleted, for selects. */
export async function userOptions(db: Kysely<DB>): Promise<UserOption[]> {
  return db.selectFrom('users').select(['id', 'username']).where('status', '<>', 1).orderBy('id').execute()
}

/** One user as the lists show them (any status), or null. */
export async function userById(db: Kysely<DB>, id: number): Promise<User | null> {
  const { rows } = await sql<UserRowWithStats>`select ${userColumns} from users u left join member_seed_stats m on m.user_id = u.id
    where u.id = ${id}`.execute(db)
  return rows[0] ? toUser(rows[0]) : null
}

export async function userDetail(db: Kysely<DB>, id: number): Promise<UserDetail | null> {
  const { rows } = await sql<UserRowWithStats>`select ${userColumns} from users u left join member_seed_stats m on m.user_id = u.id
    where u.id = ${id}`.execute(db)
  if (!rows[0]) return null
  return { ...toUser(rows[0]), byStatus: await byStatusOf(db, id) }
}

type AdminPageQuery = ParsedInput<'user.pageAdmin'>
type MemberPageQuery = ParsedInput<'user.pageNormal'>

async function pageUsers<C extends 'pageAdmin' | 'pageNormal'>(
  db: Kysely<DB>,
  call: C,
  q: AdminPageQuery | MemberPageQuery,
  conditions: RawBuilder<unknown>[],
  sortColumns: SortColumns<C>,
): Promise<{ list: User[]; total: number }> {
  const where = sql`where ${sql.join(conditions, sql` and `)}`
  const order = orderClause(sortOf(call, q.orderBy, sortColumns, { field: 'createdAt', direction: 'ASC' }), sql`u.id`)
  const { rows } = await sql<UserRowWithStats>`select ${userColumns} from users u left join member_seed_stats m on m.user_id = u.id
    ${where} ${order} limit ${q.pageSize} offset ${offsetOf(q.page, q.pageSize)}`.execute(db)
  // Thousands of users at most: an exact count is cheap.
  const { rows: counted } = await sql<{ n: number }>`select count(*) as n from users u ${where}`.execute(db)
  return { list: rows.map(toUser), total: Number(counted[0].n) }
}

/** Nullable columns sort as 0 (first when ascending) on both databases. */
const nullsFirst = (column: string) => sql`coalesce(${sql.ref(column)}, 0)`

export function pageAdmins(db: Kysely<DB>, dialect: DialectName, q: AdminPageQuery) {
  return pageUsers(db, 'pageAdmin', q, [sql`u.role = 'admin'`, sql`u.status <> ${sql.lit(AccountStatus.Deleted)}`], {
    username: binaryOrder(dialect, sql`u.username_lower`),
    siteUid: nullsFirst('u.site_uid'),
    adminSince: nullsFirst('u.admin_since'),
    lastLoginAt: nullsFirst('u.last_login_at'),
    createdAt: sql`u.created_at`,
  })
}

export function pageMembers(db: Kysely<DB>, dialect: DialectName, q: MemberPageQuery) {
  const conditions: RawBuilder<unknown>[] = [sql`u.role = 'normal'`]
  if (q.status !== undefined) conditions.push(sql`u.status = ${q.status}`)
  if (q.username !== undefined) conditions.push(sql`u.username_lower like ${likeContains(q.username.toLowerCase())} escape '\\'`)
  if (q.siteUid !== undefined) conditions.push(sql`u.site_uid = ${q.siteUid}`)
  return pageUsers(db, 'pageNormal', q, conditions, {
    username: binaryOrder(dialect, sql`u.username_lower`),
    siteUid: nullsFirst('u.site_uid'),
    status: sql`u.status`,
    seedingCount: nullsFirst('m.seeding_count'),
    seedingSize: nullsFirst('m.seeding_size'),
    assignedCount: nullsFirst('m.assigned_count'),
    createdAt: sql`u.created_at`,
    lastLoginAt: nullsFirst('u.last_login_at'),
  })
}
