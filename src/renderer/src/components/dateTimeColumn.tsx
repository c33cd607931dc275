/**
 * A date-time column (`YYYY-MM-DD HH:mm`), declared the same way on every table: one width, and
 * the time never wraps onto a second line. The width holds the 16 characters and the cell's
 * padding in the widest UI font the app meets (DejaVu Sans on Linux: 126 + 16 px), and the title
 * with a sort icon.
 */
import type { DataTableColumn } from '@renderer/components/DataTable'
import { formatDateTime } from '@renderer/utils/format'

export const DATE_TIME_WIDTH = 150

/** `extra` adds a page's settings (search, hiddenByDefault, …) or overrides the cell. */
export function dateTimeColumn<T>(title: string, dataIndex: keyof T & string, extra: Partial<DataTableColumn<T>> = {}): DataTableColumn<T> {
  return {
    title,
    dataIndex,
    width: DATE_TIME_WIDTH,
    onCell: () => ({ style: { whiteSpace: 'nowrap' } }),
    render: (time: string | number | null | undefined) => formatDateTime(time),
    ...extra,
  }
}
