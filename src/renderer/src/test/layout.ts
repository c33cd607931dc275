/**
 * Widths of a rendered table, for the layout promises a renderer test can keep without a browser: the
 * columns' declared widths (antd's <colgroup>), selection column included.
 */

/**
 * What a page's table gets in a 1280 px window (the smallest laptop one): 1280 − the side menu (208) − the
 * content's padding (2 × 24) − the card's (2 × 12) − a vertical scrollbar (15). e2e/layout.e2e.ts checks the
 * same screens in Chromium.
 */
export const TABLE_WIDTH_AT_1280 = 985

/** antd's row-selection column: its width comes from the stylesheet (`selectionColumnWidth`, = controlHeight). */
export const SELECTION_COLUMN_WIDTH = 32

/** The sum of the declared column widths of the first table under `root` (NaN when one has none). */
export function declaredTableWidth(root: ParentNode = document): number {
  const cols = Array.from(root.querySelector('.ant-table colgroup')?.querySelectorAll('col') ?? [])
  if (cols.length === 0) return Number.NaN
  const width = (col: HTMLTableColElement) =>
    col.classList.contains('ant-table-selection-col') ? SELECTION_COLUMN_WIDTH : Number.parseFloat(col.style.width || 'NaN')
  return cols.reduce((sum, col) => sum + width(col), 0)
}
