/**
 * Loading generated rows into the bench site: LOAD DATA LOCAL INFILE from an in-memory stream
 * (mysql2's `infileStreamFactory`), or multi-row INSERTs for comparison (`--load insert`).
 */
import { Readable } from 'node:stream'
import type mysql from 'mysql2/promise'

/**
 * A column of a load: `n` number, `s` text, `x` hex → binary, `ago` seconds before @base → DATETIME
 * (or TIMESTAMP), `epochAgo` seconds before @base → epoch seconds (0 when absent).
 */
export type ColumnKind = 'n' | 's' | 'x' | 'ago' | 'epochAgo'
export type LoadColumn = readonly [name: string, kind: ColumnKind]
export const NULL = '\\N'

function sqlFor(kind: ColumnKind, value: string): string {
  switch (kind) {
    case 'x':
      return `UNHEX(${value})`
    case 'ago':
      return `@base - INTERVAL ${value} SECOND`
    case 'epochAgo':
      return `IFNULL(UNIX_TIMESTAMP(@base) - ${value}, 0)`
    default:
      return value
  }
}

function tsvEscape(value: string): string {
  return /[\\\t\n]/.test(value) ? value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n') : value
}

export type LoadMethod = 'infile' | 'insert'

/** Loads rows (arrays of strings; `\N` = NULL) into `table`, in one stream or INSERTs of 2,000 rows. */
export async function load(
  conn: mysql.Connection,
  method: LoadMethod,
  table: string,
  columns: readonly LoadColumn[],
  rows: Iterable<string[]>,
): Promise<number> {
  let count = 0
  if (method === 'infile') {
    function* chunks(): Generator<Buffer> {
      let lines: string[] = []
      let size = 0
      for (const row of rows) {
        const line = row.map((v) => (v === NULL ? v : tsvEscape(v))).join('\t')
        lines.push(line)
        size += line.length
        count++
        if (size > 256 * 1024) {
          yield Buffer.from(`${lines.join('\n')}\n`)
          lines = []
          size = 0
        }
      }
      if (lines.length) yield Buffer.from(`${lines.join('\n')}\n`)
    }
    const list = columns.map(([name, kind], i) => (kind === 'n' || kind === 's' ? `\`${name}\`` : `@v${i}`)).join(', ')
    const set = columns.flatMap(([name, kind], i) => (kind === 'n' || kind === 's' ? [] : [`\`${name}\` = ${sqlFor(kind, `@v${i}`)}`]))
    await conn.query({
      sql: `LOAD DATA LOCAL INFILE 'stream' INTO TABLE \`${table}\` CHARACTER SET utf8mb4 (${list})${set.length ? ` SET ${set.join(', ')}` : ''}`,
      infileStreamFactory: () => Readable.from(chunks()),
    })
    return count
  }
  const head = `INSERT INTO \`${table}\` (${columns.map(([name]) => `\`${name}\``).join(', ')}) VALUES `
  let batch: string[] = []
  const flush = async () => {
    if (batch.length) await conn.query(head + batch.join(','))
    batch = []
  }
  for (const row of rows) {
    batch.push(
      `(${row.map((v, i) => (v === NULL ? (columns[i][1] === 'epochAgo' ? '0' : 'NULL') : columns[i][1] === 's' ? conn.escape(v) : columns[i][1] === 'x' ? `X'${v}'` : sqlFor(columns[i][1], v))).join(',')})`,
    )
    count++
    if (batch.length === 2_000) await flush()
  }
  await flush()
  return count
}

export const ago = (seconds: number) => (seconds < 0 ? NULL : String(Math.round(seconds)))
export const bytes = (gib: number) => String(Math.round(gib * 1024 ** 3))
