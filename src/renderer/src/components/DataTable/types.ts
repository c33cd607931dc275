import type { ReactNode } from 'react'
import type { TableColumnType } from 'antd'
import type { FilterValue } from 'antd/es/table/interface'
import type { TableData, TableParams, TableSort } from '@renderer/services/request'

/**
 * A field of the search form above the table, declared on the column it filters. Its limits are the
 * server's (utils/formLimits `searchLimits`), so the form never sends what the server refuses.
 */
export type SearchField =
  /** Free text, at most `maxLength` characters. */
  | { type: 'text'; name?: string; label?: string; placeholder?: string; maxLength: number }
  /** A whole number from `min` to `max` (an id, a uid), sent as a number; full-width digits count. */
  | { type: 'integer'; name?: string; label?: string; placeholder?: string; min: number; max: number }
  | { type: 'select'; name?: string; label?: string; placeholder?: string; options: { label: ReactNode; value: string | number }[] }

export interface DataTableColumn<T> extends TableColumnType<T> {
  /** The column's id in the settings and in the saved preference; defaults to `dataIndex`. */
  key?: string
  /** Title as text: the settings list and the search label need a string. */
  title: string
  /** Adds a field to the search form; its value is sent as `name` (default: the column key). */
  search?: SearchField
  /** Hidden until the user turns it on in the column settings. */
  hiddenByDefault?: boolean
}

/** Filters of antd's column header filters (`filters` on a column), by column key. */
export type ColumnFilters = Record<string, FilterValue | null>

/**
 * Loads one page. `params` holds `current`, `pageSize`, the search form's values and the table's
 * fixed `params`; `sort` is antd's sorter (pass both to `pagedRequest`, which builds `orderBy`).
 */
export type DataTableRequest<T> = (params: TableParams, sort: TableSort | undefined, filter: ColumnFilters) => Promise<TableData<T>>

/** A page that loaded: its total, under the fixed params and the search it was asked with. */
export interface LoadedPage {
  total: number
  params: Record<string, unknown>
  search: Record<string, unknown>
}

/** What a page can do to its table from outside (e.g. after a change). */
export interface DataTableActions {
  /** Loads the current page again. */
  reload(): void
  /** Shows the page holding the row at this 0-based position of the current order. */
  showRow(index: number): void
}
