/** The seed hours the formula multiplies by: the average over the member's qualified torrents. */
export function averageSeedHours(seedHours: number, torrentCount: number): number {
  return torrentCount > 0 ? Math.round((seedHours / torrentCount + Number.EPSILON) * 100) / 100 : 0
}
