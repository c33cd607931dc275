import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import { arrayRows } from './array-rows'
import { openSqliteReader } from './database'

// A name twice and a name that sorts first in an object: an array keeps both and the select order.
const query = sql`select id as b_first, username as a_second, status, status + 5 as status from array_rows_probe where id <= 2 order by id`

describe.each(openTestDatabases())('rows as arrays on $name', (backend) => {
  let opened: TestDatabase | undefined
  afterEach(async () => {
    await opened?.cleanup()
    opened = undefined
  })

  it('answers each row as its values in select order, and the same query as objects afterwards', async () => {
    opened = await backend.open()
    const { db } = opened.database
    await sql`create table array_rows_probe (id integer primary key, username text not null, status integer not null)`.execute(db)
    await sql`insert into array_rows_probe (id, username, status) values (1, 'alice', 2), (2, 'bob', 0), (3, 'carol', 2)`.execute(db)

    const expected = [
      [1, 'alice', 2, 7],
      [2, 'bob', 0, 5],
    ]
    expect(await arrayRows(db, query)).toEqual(expected)
    // Inside a transaction (the wage worker's read snapshot) too.
    expect(await db.transaction().execute((trx) => arrayRows(trx, query))).toEqual(expected)
    // The prepared statement is shared: a plain execution of the same text still answers objects.
    expect((await query.execute(db)).rows).toEqual([
      { b_first: 1, a_second: 'alice', status: 7 },
      { b_first: 2, a_second: 'bob', status: 5 },
    ])
    if (backend.name === 'sqlite') {
      // The wage worker's read-only connection.
      const reader = openSqliteReader(opened.database.sqlite!.name)
      try {
        expect(await arrayRows(reader, query)).toEqual(expected)
      } finally {
        await reader.destroy()
      }
    }
  })
})
