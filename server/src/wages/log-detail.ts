/**
 * Wage records as the operation log names them — `alice 2026-10（#198）、bob 2026-10（#197） 等 12 条` — whose wages an
 * admin marked paid or paid into the site, not bare record ids (the screens show members and months, never ids).
 */
export function namedWageRecords(records: readonly { id: number; username: string; period: string }[], total: number, max = 5): string {
  const listed = records
    .slice(0, max)
    .map((r) => `${r.username} ${r.period}（#${r.id}）`)
    .join('、')
  return total > max ? `${listed} 等 ${total} 条` : listed
}
