/** Column helpers: a stable key per column, and the search fields the columns declare. */
import type { DataTableColumn, SearchField } from './types'

export function columnKey<T>(column: DataTableColumn<T>): string {
  if (column.key !== undefined) return String(column.key)
  const { dataIndex } = column
  return Array.isArray(dataIndex) ? dataIndex.join('.') : String(dataIndex ?? '')
}

export interface SearchItem {
  name: string
  label: string
  field: SearchField
}

export function searchItems<T>(columns: readonly DataTableColumn<T>[]): SearchItem[] {
  return columns.flatMap((column) =>
    column.search
      ? [{ name: column.search.name ?? columnKey(column), label: column.search.label ?? column.title, field: column.search }]
      : [],
  )
}
