/**
 * A member's torrent-name search (page-seed with torrentName, userId forced to their own): it tests the
 * names of their own records, and finds exactly what the site-wide search finds among them.
 */
import SQLite from 'better-sqlite3'
import { CompiledQuery, type Kysely, type KyselyPlugin, sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import type { SeedRecord } from '@shared/entities'
import { hashPassword } from '../auth/password'
import type { DB } from '../db/schema'
import { derive } from '../derive'
import { pageSeedRecords } from '../seeding/seed-records'
import { openTestDatabases, testClock, testScrypt, useTestApp } from '../test/harness'
import { SeedingWorld } from '../test/seeding-world'
import { DerivedCache } from './derived-cache'
import { foldedContains, ftsFold } from './name-search'

const ADMIN_PASSWORD = 'Admin-pass-1'
const MEMBER_PASSWORD = 'Member-pass-1'
const NOW = Date.UTC(2026, 0, 15, 4, 0, 0)

describe('SQLite FTS5 case folding, as the member search matches it', () => {
  it('ftsFold folds every code point below U+20000 as the trigram tokenizer does', () => {
    const db = new SQLite(':memory:')
    try {
      db.exec(`create virtual table t using fts5(x, tokenize='trigram'); create virtual table v using fts5vocab(t, 'instance')`)
      const insert = db.prepare('insert into t(rowid, x) values (?, ?)')
      // Surrogates are not characters; SQLite reads U+FFFE and U+FFFF as U+FFFD, in GLOB as in FTS5.
      const codePoints = Array.from({ length: 0x20000 - 1 }, (_, i) => i + 1).filter(
        (c) => (c < 0xd800 || c > 0xdfff) && c !== 0xfffe && c !== 0xffff,
      )
      db.transaction(() => {
        for (const c of codePoints) insert.run(c, String.fromCodePoint(c).repeat(3))
      })()
      const wrong: string[] = []
      let seen = 0
      for (const { doc, term } of db.prepare('select doc, term from v').iterate() as Iterable<{ doc: number; term: string }>) {
        seen++
        if (term !== String.fromCodePoint(ftsFold(doc)).repeat(3)) wrong.push(`U+${doc.toString(16)}: ${term}`)
      }
      expect(seen).toBe(codePoints.length)
      expect(wrong).toEqual([])
    } finally {
      db.close()
    }
  })

  it('foldedContains: each character stands for those that fold as it does; GLOB specials are literal', () => {
    expect(foldedContains('Kiß')).toBe('*[Kk\u212a][Ii][ß\u1e9e]*')
    expect(foldedContains('ςοφ')).toBe('*[Σςσ][Οο][Φφϕ]*')
    expect(foldedContains('星河 1*?[]^-_%\\"')).toBe('*星河 1[*][?][[]]^-_%\\"*')
  })
})

describe.each(openTestDatabases())("a member's torrent-name search on $name", (backend) => {
  const t = useTestApp(backend, { adminPassword: ADMIN_PASSWORD, clock: testClock(NOW) })
  const members = { alice: 0, bob: 0, carol: 0 }
  const tokens = { admin: '', alice: '', bob: '', carol: '' }
  const names = [
    'Silent.Harbor.2019.1080p.BluRay-CedarHD',
    'HARBOR.LIGHTS.2020.WEB-DL',
    '星河烟火 Lost.Voyage.2021.2160p',
    '星河.Remastered',
    'Äpfel.und.Birnen.2018',
    'äpfel.Klein.2019',
    'ΣΟΦΙΑΣ.2017',
    'σοφιας.Greek.2016',
    'Брат.1997.DVDRip',
    'БРАТ.2.2000',
    'ＢＤ合集.Vol.1',
    'ｂｄ合集.Vol.2',
    '\u212aelvin.Scale.2015', // the Kelvin sign
    'kelvin.lower.2014',
    'Straße.2013',
    'ſtrasse.Long.S.2012',
    'ẞTRASSE.Capital.Sharp.S',
    'Glass_Orchard.100%.2017',
    'Back\\slash.Path.2011',
    'a*b?[c].Brackets.2010',
    'Quote"Name.2009',
  ]

  beforeAll(async () => {
    const { db } = t.db.database
    const w = new SeedingWorld(db)
    const hash = await hashPassword(MEMBER_PASSWORD, testScrypt)
    members.alice = await w.member('alice', 1001, { passwordHash: hash })
    members.bob = await w.member('bob', 1002, { passwordHash: hash })
    members.carol = await w.member('carol', 1003, { passwordHash: hash })
    for (const [i, name] of names.entries()) await w.torrent(i + 1, { name, added: NOW - i * 86_400_000 })
    // Each member has records on some of the torrents, each torrent has records of someone.
    for (const [k, uid] of [1001, 1002, 1003].entries()) {
      for (let id = 1; id <= names.length; id++) {
        if ((id + k) % 3 !== 0)
          await w.snatch(uid, id, { finished: id % 2 === 0, uploaded: id * 1000, lastAction: NOW - (id * 7 + k) * 60_000 })
      }
    }
    await derive(t.db.database, { now: NOW })
    tokens.admin = await t.login('admin', ADMIN_PASSWORD)
    for (const who of ['alice', 'bob', 'carol'] as const) tokens[who] = await t.login(who, MEMBER_PASSWORD)
  })

  async function pageSeed(token: string, body: object): Promise<{ list: SeedRecord[]; total: number }> {
    const res = await t.call<{ list: SeedRecord[]; total: number }>('POST', '/user/page-seed', {
      token,
      body: { page: 1, pageSize: 200, ...body },
    })
    expect(res.status, res.body.msg).toBe(200)
    return res.body.data
  }

  const texts = [
    ...['harbor', 'HARBOR', 'Ha', 'r', '星河', '星河烟', '烟火 L', 'äpfel', 'ÄPFEL', 'äp', 'Äp', 'σοφια', 'ΣΟΦΙΑ', 'ςοφ', 'ιας.'],
    ...['брат', 'БРА', 'бр', 'ｂｄ合', 'ＢＤ', 'kelvin', 'KELVIN', 'ke', 'ſtr', 'STRASSE', 'ße', 'ß', 'ẞtr', 'trasse'],
    ...['100%', '0%', '_', '%', '\\', 'k\\sl', 'a*b', '*b?[', '?[c]', '[c]', 'c]', 'e"N', '"', '.20', 'no such torrent'],
  ]

  it("finds among the member's records exactly what the site-wide search finds, in the same order", async () => {
    for (const torrentName of texts) {
      // The admin's search without a member is the site-wide one (nameMatch), unchanged.
      const everyone = await pageSeed(tokens.admin, { torrentName })
      for (const who of ['alice', 'bob', 'carol'] as const) {
        const context = `${who}: ${torrentName}`
        const expected = everyone.list.filter((r) => r.userId === members[who])
        const own = await pageSeed(tokens[who], { torrentName })
        expect(own, context).toEqual({ list: expected, total: expected.length })
        // An admin's search within one member is the same search.
        expect(await pageSeed(tokens.admin, { torrentName, userId: members[who] }), context).toEqual(own)
        // With another filter and another order.
        const status = expected[0]?.status ?? 1
        const byUpload = expected.filter((r) => r.status === status).sort((a, b) => a.uploaded - b.uploaded || a.id - b.id)
        const own2 = await pageSeed(tokens[who], { torrentName, status, orderBy: 'uploaded ASC' })
        expect(own2, context).toEqual({ list: byUpload, total: byUpload.length })
      }
    }
  })

  it.runIf(backend.name === 'sqlite')('matches as the FTS5 trigram search does: Unicode case folding, not only ASCII', async () => {
    // Every torrent has records of two of the three members: their own searches together find every match.
    const torrentsOf = async (torrentName: string) => {
      const found = await Promise.all((['alice', 'bob', 'carol'] as const).map((who) => pageSeed(tokens[who], { torrentName })))
      return [...new Set(found.flatMap((page) => page.list.map((r) => names[r.torrentId - 1])))].sort()
    }
    expect(await torrentsOf('äpfel')).toEqual(['Äpfel.und.Birnen.2018', 'äpfel.Klein.2019'])
    expect(await torrentsOf('ςοφ')).toEqual(['ΣΟΦΙΑΣ.2017', 'σοφιας.Greek.2016'])
    expect(await torrentsOf('kelvin')).toEqual(['kelvin.lower.2014', '\u212aelvin.Scale.2015'])
    expect(await torrentsOf('ẞtr')).toEqual(['ẞTRASSE.Capital.Sharp.S'])
    // Two characters cannot use the trigram index: the names are scanned with the same folding.
    expect(await torrentsOf('äp')).toEqual(['Äpfel.und.Birnen.2018', 'äpfel.Klein.2019'])
    expect(await torrentsOf('ΣΟ')).toEqual(['ΣΟΦΙΑΣ.2017', 'σοφιας.Greek.2016'])
  })

  it("reads only the member's records and the names of their torrents: no search of every torrent's name", async () => {
    const { db, dialect } = t.db.database
    for (const torrentName of ['星河', 'harbor', 'σοφια']) {
      const { db: recorded, queries } = recording(db)
      // As the route calls it for a member: userId forced to their own.
      await pageSeedRecords(recorded, dialect, new DerivedCache(), { page: 1, pageSize: 20, torrentName, userId: members.alice })
      const read = queries.filter((q) => /seed_records|site_torrents|torrent_labels/.test(q.sql))
      const plans = await Promise.all(read.map((q) => (dialect === 'sqlite' ? sqlitePlan(db, q) : postgresPlan(db, q))))
      for (const [i, steps] of plans.entries()) {
        const context = `${torrentName}: ${read[i].sql}\n${steps.join('\n')}`
        if (dialect === 'sqlite') {
          // No FTS search, no scan of the torrents, their labels (t) or the records (r).
          expect(
            steps.filter((s) => /site_torrents_name_fts|^SCAN (site_torrents|torrent_labels|t|r)\b/.test(s)),
            context,
          ).toEqual([])
          const nameReads = steps.filter((s) => /^SEARCH (site_torrents|torrent_labels|t)\b/.test(s))
          for (const s of nameReads) expect(s, context).toMatch(/USING INTEGER PRIMARY KEY \(rowid=\?\)/)
        } else {
          // No name test in a read of torrents or labels (ILIKE is ~~*), no records read whole: each label
          // is read by its record's torrent id.
          expect(
            steps.filter((s) => /on (site_torrents|torrent_labels):.*~~\*/.test(s)),
            context,
          ).toEqual([])
          expect(
            steps.filter((s) => /^Seq Scan on (site_torrents|seed_records)/.test(s)),
            context,
          ).toEqual([])
          const labels = steps.filter((s) => / on torrent_labels:/.test(s))
          for (const s of labels) expect(s, context).toMatch(/\(torrent_id = r(_\d+)?\.torrent_id\)/)
        }
      }
      // The member's records are found through their index: by the page and by the count.
      const byMember = dialect === 'sqlite' ? /^SEARCH r USING (COVERING )?INDEX \w+ \(user_id=\?/ : /on seed_records: .*\(user_id = /
      expect(plans.filter((steps) => steps.some((s) => byMember.test(s))).length, torrentName).toBeGreaterThanOrEqual(2)
    }
  })
})

/** A Kysely over `db` that keeps every query it runs, compiled. */
function recording(db: Kysely<DB>): { db: Kysely<DB>; queries: CompiledQuery[] } {
  const queries: CompiledQuery[] = []
  const plugin: KyselyPlugin = {
    transformQuery: ({ node, queryId }) => (queries.push(db.getExecutor().compileQuery(node, queryId)), node),
    transformResult: async ({ result }) => result,
  }
  return { db: db.withPlugin(plugin), queries }
}

/** EXPLAIN QUERY PLAN: one line per step ("SEARCH r USING INDEX … (user_id=?)"). */
async function sqlitePlan(db: Kysely<DB>, query: CompiledQuery): Promise<string[]> {
  const { rows } = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]))
  return rows.map((r) => r.detail)
}

interface PlanNode {
  'Node Type': string
  'Relation Name'?: string
  'Index Cond'?: string
  'Recheck Cond'?: string
  Filter?: string
  Plans?: PlanNode[]
}

/**
 * EXPLAIN: one line per node that reads a table ("Index Scan on torrent_labels: (torrent_id = r.torrent_id)").
 * Without sequential scans: the test's tables are tiny, and PostgreSQL reads a one-page table whole
 * rather than through an index; so it shows the access paths it takes at size.
 */
async function postgresPlan(db: Kysely<DB>, query: CompiledQuery): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx)
    const { rows } = await trx.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      CompiledQuery.raw(`explain (format json) ${query.sql}`, [...query.parameters]),
    )
    const lines: string[] = []
    const visit = (node: PlanNode) => {
      if (node['Relation Name']) {
        const conditions = [node['Index Cond'], node['Recheck Cond'], node.Filter].filter(Boolean).join(' ')
        lines.push(`${node['Node Type']} on ${node['Relation Name']}: ${conditions}`)
      }
      for (const child of node.Plans ?? []) visit(child)
    }
    visit(rows[0]['QUERY PLAN'][0].Plan)
    return lines
  })
}
