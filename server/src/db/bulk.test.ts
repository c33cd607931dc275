import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { torrentIdsNamed } from '../paging/name-search'
import { openTestDatabases, type TestDatabase } from '../test/harness'
import { bulkInsert, deferIndexes, withDeferredIndexes } from './bulk'
import type { AppDatabase } from './database'
import { migrateToLatest } from './migrate'

const tables = ['site_torrents', 'site_peers']
const kept = ['site_peers_torrent_peer_user_key']

async function secondaryNames({ db, dialect }: AppDatabase): Promise<string[]> {
  const { rows } =
    dialect === 'sqlite'
      ? await sql<{
          name: string
        }>`select name from sqlite_master where type in ('index', 'trigger') and sql is not null and tbl_name in (${sql.join(tables)}) order by name`.execute(
          db,
        )
      : await sql<{
          name: string
        }>`select indexname as name from pg_indexes where schemaname = current_schema() and tablename in (${sql.join(tables)})
        and indexname not in (select conname from pg_constraint) order by indexname`.execute(db)
  return rows.map((r) => r.name)
}

async function addTorrent(database: AppDatabase, id: number, name: string): Promise<void> {
  const columns = [
    ['id', 'integer'],
    ['info_hash', 'text'],
    ['name', 'text'],
    ['size', 'bigint'],
    ['added', 'bigint'],
    ['owner', 'integer'],
  ] as const
  await bulkInsert(database, 'site_torrents', columns, [[id, id.toString(16).padStart(40, '0'), name, 1 << 30, 0, 1]])
}

async function named(database: AppDatabase, text: string): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`select id from (${torrentIdsNamed(database.dialect, text)}) as m order by id`.execute(
    database.db,
  )
  return rows.map((r) => Number(r.id))
}

describe.each(openTestDatabases())('deferred indexes on $name', (backend) => {
  let opened: TestDatabase | undefined
  afterEach(async () => {
    await opened?.cleanup()
    opened = undefined
  })

  it('a load that fails still gets its indexes back', async () => {
    opened = await backend.open()
    const { database } = opened
    await migrateToLatest(database)
    const before = await secondaryNames(database)
    let during: string[] = []
    await expect(
      withDeferredIndexes(database, tables, kept, async () => {
        during = await secondaryNames(database)
        throw new Error('source went away')
      }),
    ).rejects.toThrow('source went away')
    expect(during).toEqual(kept)
    expect(await secondaryNames(database)).toEqual(before)
    expect(await database.db.selectFrom('deferred_definitions').selectAll().execute()).toEqual([])
  })

  it('a process that dies during the load gets them back at its next start, the name search included', async () => {
    opened = await backend.open()
    const { database } = opened
    await migrateToLatest(database)
    const before = await secondaryNames(database)
    expect(before.length).toBeGreaterThan(kept.length)
    // The drop committed, the load wrote a row, then the process died (nothing put them back).
    const dropped = await deferIndexes(database, tables, kept)
    await addTorrent(database, 7, 'Cut.Short.Import.2160p')
    expect(await secondaryNames(database)).toEqual(kept)

    const restart = await migrateToLatest(database)
    expect(restart.restored.sort()).toEqual(dropped.sort())
    expect(await secondaryNames(database)).toEqual(before)
    expect(await database.db.selectFrom('deferred_definitions').selectAll().execute()).toEqual([])
    // Written while the search index's triggers were gone, found all the same; and edits are followed again.
    expect(await named(database, 'short.import')).toEqual([7])
    await database.db.updateTable('site_torrents').set({ seeders: 3, name: 'Cut.Short.Import.2160p' }).where('id', '=', 7).execute()
    expect(await named(database, 'short.import')).toEqual([7])
    await database.db.updateTable('site_torrents').set({ name: 'Renamed.1080p' }).where('id', '=', 7).execute()
    expect(await named(database, 'short.import')).toEqual([])
    expect(await named(database, 'renamed')).toEqual([7])
    expect((await migrateToLatest(database)).restored).toEqual([])
  })

  it('a unique key not kept during the load comes back; of rows that share it, the newest stays', async () => {
    opened = await backend.open()
    const { database } = opened
    await migrateToLatest(database)
    const peer = (id: number, peerId: string) =>
      sql`insert into site_peers (id, torrent, peer_id, started, last_action, prev_action, userid) values (${id}, 5, ${peerId}, 1, 2, 3, 1001)`.execute(
        database.db,
      )
    await withDeferredIndexes(database, ['site_peers'], [], async () => {
      // The site re-created a peer under a new id while the load ran: the key cannot refuse it now.
      await peer(10, 'aa')
      await peer(11, 'bb')
      await peer(12, 'aa')
    })
    const rows = await database.db.selectFrom('site_peers').select(['id', 'peer_id']).orderBy('id').execute()
    expect(rows.map((r) => [Number(r.id), r.peer_id])).toEqual([
      [11, 'bb'],
      [12, 'aa'],
    ])
    await expect(peer(13, 'bb')).rejects.toThrow()
    expect(await database.db.selectFrom('deferred_definitions').selectAll().execute()).toEqual([])
  })
})
