/** How big a demo community is. `default` is the first-run community (about 200 members, 20,000 torrents); `large` the benchmark's. */
export interface DemoScale {
  /** Team members (role normal) with a site uid. */
  members: number
  /** Admins besides `admin`, who seed too (they have site uids). */
  extraAdmins: number
  /** Site users in the mirror (members, uploaders, the rest of the site). */
  siteUsers: number
  torrents: number
  /** Average seed records per member (log-normal spread). */
  recordsPerMember: number
  /** Days of daily history (aggregates; counter snapshots per the retention policy). */
  historyDays: number
}

export const demoScales = {
  /** For e2e and main-process tests: a believable but quick community (~1 s). */
  small: { members: 24, extraAdmins: 2, siteUsers: 400, torrents: 2_000, recordsPerMember: 120, historyDays: 120 },
  default: { members: 200, extraAdmins: 2, siteUsers: 4_000, torrents: 20_000, recordsPerMember: 1_000, historyDays: 120 },
  large: { members: 2_000, extraAdmins: 2, siteUsers: 40_000, torrents: 200_000, recordsPerMember: 1_000, historyDays: 120 },
} as const satisfies Record<string, DemoScale>

export type DemoSize = keyof typeof demoScales
export const demoSizes = Object.keys(demoScales) as DemoSize[]
