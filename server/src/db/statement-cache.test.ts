import SQLite from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { withStatementCache } from './statement-cache'

describe('SQLite statement cache', () => {
  it('hands out the prepared statement of a SQL text again, and keeps only the most recent ones', () => {
    const raw = new SQLite(':memory:')
    const db = withStatementCache(raw, 2)
    const a = db.prepare('select 1 as n')
    expect(db.prepare('select 1 as n')).toBe(a)
    db.prepare('select 2 as n')
    db.prepare('select 3 as n')
    // 'select 1' was the least recently used of three: prepared anew.
    expect(db.prepare('select 1 as n')).not.toBe(a)
    raw.close()
  })

  it('never hands out a statement that is still being iterated', () => {
    const raw = new SQLite(':memory:')
    const db = withStatementCache(raw)
    raw.exec('create table t (n integer); insert into t values (1), (2), (3)')
    const outer = db.prepare('select n from t order by n')
    const seen: number[][] = []
    for (const row of outer.iterate([]) as IterableIterator<{ n: number }>) {
      const inner = db.prepare('select n from t order by n')
      expect(inner).not.toBe(outer)
      seen.push((inner.all([]) as { n: number }[]).map((r) => r.n * row.n))
    }
    expect(seen).toEqual([
      [1, 2, 3],
      [2, 4, 6],
      [3, 6, 9],
    ])
    raw.close()
  })

  it('answers with the current schema after the table changed (SQLite re-prepares)', () => {
    const raw = new SQLite(':memory:')
    const db = withStatementCache(raw)
    raw.exec('create table t (a integer); insert into t values (1)')
    expect(db.prepare('select * from t').all([])).toEqual([{ a: 1 }])
    raw.exec('alter table t add column b integer default 7; create index t_b on t (b)')
    expect(db.prepare('select * from t').all([])).toEqual([{ a: 1, b: 7 }])
    raw.exec("drop table t; create table t (c text); insert into t values ('x')")
    expect(db.prepare('select * from t').all([])).toEqual([{ c: 'x' }])
    raw.close()
  })
})
