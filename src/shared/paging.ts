/**
 * Paged requests: `{ page, pageSize, orderBy?, ...filters }`, the same for every paged call.
 * Each paged endpoint names the fields it may be sorted by; anything else is refused with 400.
 */
import { z } from './validation'

export const sortDirections = ['ASC', 'DESC'] as const
export type SortDirection = (typeof sortDirections)[number]

export const MAX_PAGE_SIZE = 200

export const pagingShape = {
  page: z.number().int().min(1).max(1_000_000),
  pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE),
}

/** `"<field> ASC|DESC"` where field is one of `fields`. */
export function orderBySchema<const F extends readonly [string, ...string[]]>(fields: F) {
  return z
    .string()
    .max(64)
    .refine(
      (value) => {
        const [field, direction, extra] = value.trim().split(/\s+/)
        return extra === undefined && fields.includes(field as F[number]) && sortDirections.includes(direction as SortDirection)
      },
      { message: `只能按 ${fields.join('、')} 排序，方向为 ASC 或 DESC` },
    )
}

export function parseOrderBy<F extends string>(orderBy: string | undefined): { field: F; direction: SortDirection } | null {
  if (!orderBy) return null
  const [field, direction] = orderBy.trim().split(/\s+/)
  return { field: field as F, direction: direction as SortDirection }
}

/**
 * Builds the schema of a paged request from its filters and sortable fields. Strict: a misspelt
 * filter (`stauts: 3`) is refused with 400 naming the field, rather than dropped — which would
 * answer with every row as if the filter had matched. `keyword` is the one extra field accepted
 * (the original console's clients send it with every paged call): no handler reads it, so it is dropped when
 * parsed — main never forwards what a renderer put there (megabytes, text nested past the NUL check).
 */
export function pagedRequest<const F extends readonly [string, ...string[]], S extends z.ZodRawShape>(sortable: F, filters: S) {
  return z.strictObject({
    ...pagingShape,
    orderBy: orderBySchema(sortable).optional(),
    keyword: z
      .unknown()
      .transform(() => undefined)
      .optional(),
    ...filters,
  })
}
