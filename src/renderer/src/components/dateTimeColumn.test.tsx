import { describe, expect, it } from 'vitest'
import dayjs from 'dayjs'
import { DATE_TIME_WIDTH, dateTimeColumn } from './dateTimeColumn'
import { seedRecordColumns } from './seedRecordColumns'
import { wageRecordColumns } from './wageColumns'

interface Row {
  at: string | null
}

describe('dateTimeColumn', () => {
  it('shows YYYY-MM-DD HH:mm on one line, at the one width every table uses', () => {
    const column = dateTimeColumn<Row>('时间', 'at')
    const at = '2024-11-28T11:50:00.000Z'
    expect(column.width).toBe(DATE_TIME_WIDTH)
    expect(column.render!(at, { at }, 0)).toBe(dayjs(at).format('YYYY-MM-DD HH:mm'))
    expect(column.render!(null, { at: null }, 0)).toBe('-')
    expect(column.onCell!({ at }, 0)).toEqual({ style: { whiteSpace: 'nowrap' } })
  })

  it('keeps a page setting such as a search field or hiddenByDefault', () => {
    const column = dateTimeColumn<Row>('时间', 'at', { hiddenByDefault: true })
    expect(column.hiddenByDefault).toBe(true)
    expect(column.width).toBe(DATE_TIME_WIDTH)
  })

  it('is how the shared seed-record and wage columns show their times', () => {
    const times = [
      ...seedRecordColumns().filter((column) => column.title === '最后活动' || column.title === '分配时间'),
      ...wageRecordColumns({
        lead: { title: '月份', dataIndex: 'period' },
        afterPaidAt: { title: '发放人', dataIndex: 'paidBy' },
      }).filter((column) => column.title === '发放时间' || column.title === '计算时间'),
    ]
    expect(times).toHaveLength(4)
    for (const column of times) {
      expect(column.width).toBe(DATE_TIME_WIDTH)
      expect(column.onCell!({} as never, 0)).toEqual({ style: { whiteSpace: 'nowrap' } })
    }
  })
})
