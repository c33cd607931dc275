/**
 * The period's wage list as a file: xlsx through exceljs (a maintained spreadsheet library: real
 * Office Open XML, numbers as numbers), CSV by hand — RFC 4180 quoting of every field, CRLF, and a
 * UTF-8 BOM so that Excel shows the Chinese headers and names instead of mojibake.
 */
import ExcelJS from 'exceljs'
import { GIB } from '../rules/rules'
import { averageSeedHours } from './hours'
import type { ExportRecord } from './queries'
import { localDateTime } from '../domain/local-day'

// 平均做种时长 is what the formula multiplies by; the total over all qualified torrents reads in days.
export const exportHeaders = [
  '排名',
  '保种员',
  '站点 UID',
  '月份',
  '工资',
  '达标种子数',
  '达标体积（GiB）',
  '平均做种时长（小时）',
  '累计做种时长（天）',
  '发放状态',
  '发放时间',
  '发放人',
  '规则版本',
  '计算时间',
  // As 工资计算 marks a record: counted from a first observation, not from the month's start (domain.md §4).
  '计算范围',
] as const

/** Each column's width in the xlsx, by its header: a column added to the headers must be given one (the 15th had none). */
const columnWidths: Record<(typeof exportHeaders)[number], number> = {
  排名: 6,
  保种员: 18,
  '站点 UID': 10,
  月份: 9,
  工资: 12,
  达标种子数: 11,
  '达标体积（GiB）': 14,
  '平均做种时长（小时）': 19,
  '累计做种时长（天）': 17,
  发放状态: 9,
  发放时间: 20,
  发放人: 12,
  规则版本: 9,
  计算时间: 20,
  计算范围: 9,
}

const round2 = (n: number) => Math.round((n + Number.EPSILON) * 100) / 100
const gib = (bytes: number) => round2(bytes / GIB)

/** Local time text in the rules' zone, e.g. "2026-02-03 10:00:00". */
const localTime = (iso: string | null, timeZone: string) => (iso ? localDateTime(Date.parse(iso), timeZone) : '')

export function exportRow(r: ExportRecord, timeZone: string): (string | number)[] {
  return [
    r.rank,
    r.username,
    r.siteUid ?? '',
    r.period,
    r.amount,
    r.torrentCount,
    gib(r.totalSize),
    r.avgSeedHours ?? averageSeedHours(r.seedHours, r.torrentCount),
    round2(r.seedHours / 24),
    r.payment === 1 ? '已发放' : '未发放',
    localTime(r.paidAt, timeZone),
    r.paidBy ?? '',
    r.ruleVersion,
    localTime(r.computedAt, timeZone),
    r.partial ? '部分月份' : '整月',
  ]
}

export async function wagesXlsx(period: string, records: readonly ExportRecord[], timeZone: string): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook()
  workbook.creator = '保种管理台'
  const sheet = workbook.addWorksheet(`工资 ${period}`, { views: [{ state: 'frozen', ySplit: 1 }] })
  sheet.addRow([...exportHeaders]).font = { bold: true }
  records.forEach((r) => sheet.addRow(exportRow(r, timeZone)))
  exportHeaders.forEach((header, i) => (sheet.getColumn(i + 1).width = columnWidths[header]))
  for (const header of ['工资', '达标体积（GiB）', '平均做种时长（小时）', '累计做种时长（天）'] as const) {
    sheet.getColumn(exportHeaders.indexOf(header) + 1).numFmt = '#,##0.00'
  }
  return Buffer.from(await workbook.xlsx.writeBuffer())
}

const BOM = '\uFEFF'

function csvField(value: string | number): string {
  const text = String(value)
  // Every text field is quoted (a name may hold commas, quotes or line breaks); a leading = + - @
  // is prefixed with ' so that Excel does not run it as a formula (CSV injection).
  if (typeof value === 'number') return text
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text
  return `"${safe.replace(/"/g, '""')}"`
}

export function wagesCsv(records: readonly ExportRecord[], timeZone: string): Buffer {
  const lines = [exportHeaders.map(csvField).join(',')]
  records.forEach((r) => lines.push(exportRow(r, timeZone).map(csvField).join(',')))
  return Buffer.from(BOM + lines.join('\r\n') + '\r\n', 'utf8')
}

/** `Content-Disposition` with an ASCII fallback name and the Chinese one (RFC 6266 / 5987). */
export function contentDisposition(period: string, format: 'xlsx' | 'csv'): string {
  return `attachment; filename="wages-${period}.${format}"; filename*=UTF-8''${encodeURIComponent(`工资-${period}.${format}`)}`
}

export const contentTypes = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
} as const
