/** Test data of the torrent pages. */
import type { Torrent } from '@shared/entities'

export const torrent = (patch: Partial<Torrent>): Torrent => ({
  id: 11,
  siteTorrentId: 5011,
  name: 'Planet.Earth.II.2016.2160p',
  infoHash: 'ab'.repeat(20),
  size: 1024 ** 3 * 40,
  team: 'TEAM',
  category: null,
  addedAt: '2024-12-01T10:00:00+08:00',
  seedType: 1,
  seedTypeSource: 'rule',
  seeders: 4,
  leechers: 0,
  keepers: 1,
  targetKeepers: 3,
  completion: 2,
  assigned: 2,
  ownerUserId: null,
  banned: false,
  ...patch,
})
