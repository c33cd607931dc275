/**
 * NexusPHP's monthly claim settlement of one user, transcribed from its code (xiaomlove/nexusphp), not from
 * ours, over plain numbers — the reference the parity tests hold the console to (wages/nexusphp-parity.test.ts
 * on the engine's data, payout/site-month.test.ts on a site's own rows).
 *
 * app/Repositories/ClaimRepository.php `settleUser($uid)`, over every claim of the user:
 *   if ($row->last_settle_at && $row->last_settle_at->gte($startOfThisMonth)) { … if (!$force) return false; }
 *   if (bcsub($row->snatch->seedtime, $row->seed_time_begin) >= $seedTimeRequiredHours * 3600
 *       || bcsub($row->snatch->uploaded, $row->uploaded_begin) >= $uploadedRequiredTimes * $row->torrent->size) {
 *     $reachedTorrentIdArr[] = $row->torrent_id;  $toUpdateIdArr[] = $row->id;
 *     $totalSeedTime += bcsub($row->snatch->seedtime, $row->seed_time_begin);
 *   } else {
 *     $targetStartOfMonth = $row->created_at->startOfMonth();
 *     if ($startOfThisMonth->diffInMonths($targetStartOfMonth) > 1) $unReachedIdArr[] = $row->id;   // removed
 *     else { $toUpdateIdArr[] = $row->id; … }                                                        // first month: kept
 *   }
 *   $bonusResult = calculate_seed_bonus($uid, $reachedTorrentIdArr);
 *   $seedTimeHoursAvg = $totalSeedTime / (count($reachedTorrentIdArr) ?: 1) / 3600;
 *   $bonusFinal = $bonusResult['seed_bonus'] * $seedTimeHoursAvg * $bonusMultiplier;  (newer: 'seed_points', the same value)
 *   $totalDeduct = $bonusDeduct * count($unReachedIdArr);
 *   User::increment('seedbonus', $bonusFinal); Claim::whereIn('id', $unReachedIdArr)->delete(); User::decrement('seedbonus', $totalDeduct);
 *   update claims set seed_time_begin = <snatch seedtime>, uploaded_begin = <snatch uploaded>, last_settle_at = now where id in ($toUpdateIdArr)
 *
 * include/functions.php `calculate_seed_bonus($uid, $torrentIdArr)`, the branch with $torrentIdArr given:
 *   "select torrents.id, torrents.added, torrents.size, torrents.seeders, ... from torrents WHERE id in ($idStr)"
 *   (newer: "and size >= $minSize", the setting bonus.min_size, unset = 0) — no join with `peers`: a reached
 *   torrent counts whether or not the user seeds it at that moment;
 *   foreach ($torrentResult as $torrent) {
 *     $weeks_alive = ($timenow - strtotime($torrent['added'])) / $sectoweek;   ($timenow = time())
 *     $gb_size = $torrent['size'] / 1073741824;
 *     $temp = (1 - exp($valueone * $weeks_alive)) * $gb_size * (1 + $sqrtof2 * exp($valuethree * ($torrent['seeders'] - 1)));
 *     $A += $temp; $count++;
 *   }
 *   if ($count > $maxseeding_bonus) $count = $maxseeding_bonus;
 *   $seed_bonus = $valuetwo * atan($A / $l_bonus) + ($perseeding_bonus * $count);   (no donor, official or medal factor)
 * with $valueone = log(0.1) / $tzero_bonus, $valuetwo = $bzero_bonus * (2 / $pi), $valuethree = log(0.1) / ($nzero_bonus - 1),
 * and `seeders` the torrents table's own column, 0 included.
 */

/** NexusPHP's own defaults: claim standard 300 h or 2× size, multiplier 1, 600 per removed claim; bonus T0 4, N0 7, B0 100, L 300, 1 per torrent up to 7. */
export const NEXUS = { hours: 300, times: 2, multiplier: 1, deduct: 600, t0: 4, n0: 7, b0: 100, l: 300, perSeeding: 1, maxSeeding: 7 }

/** A row of `torrents` as calculate_seed_bonus reads it. */
export interface NexusTorrent {
  id: number
  /** `added`, epoch seconds (strtotime of the site's DATETIME). */
  added: number
  /** Bytes. */
  size: number
  seeders: number
}

/** A claim with its snatch, as settleUser reads them. */
export interface NexusClaim {
  id: number
  torrentId: number
  seedTimeBegin: number
  uploadedBegin: number
  /** The month of `created_at` in the site's time (year × 12 + month − 1). */
  createdMonth: number
  /** `last_settle_at` as epoch seconds, or null. */
  lastSettleAt: number | null
  snatch: { seedtime: number; uploaded: number }
}

export interface NexusSettlement {
  /** false: some claim was settled this month already — settleUser returns without doing anything. */
  settled: boolean
  bonusFinal: number
  totalDeduct: number
  reached: number[]
  /** Claims removed (unreached, made more than a month before). */
  removed: number[]
  /** Claims whose begins and last_settle_at are set (reached, and unreached in their first month). */
  updated: number[]
  seedBonus: number
  hoursAvg: number
}

/** include/functions.php `calculate_seed_bonus($uid, $torrentIdArr)`, the claim settlement's branch (above). `timenow`: epoch seconds. */
export function calculateSeedBonus(
  torrents: readonly NexusTorrent[],
  timenow: number,
  nexus = NEXUS,
): { seed_bonus: number; A: number; count: number } {
  const sqrtof2 = Math.sqrt(2)
  const logofpointone = Math.log(0.1)
  const valueone = logofpointone / nexus.t0
  const pi = 3.141592653589793
  const valuetwo = nexus.b0 * (2 / pi)
  const valuethree = logofpointone / (nexus.n0 - 1)
  const sectoweek = 7 * 24 * 60 * 60
  let A = 0
  let count = 0
  for (const torrent of torrents) {
    const weeks_alive = (timenow - torrent.added) / sectoweek
    const gb_size = torrent.size / 1073741824
    const temp = (1 - Math.exp(valueone * weeks_alive)) * gb_size * (1 + sqrtof2 * Math.exp(valuethree * (torrent.seeders - 1)))
    A += temp
    count++
  }
  if (count > nexus.maxSeeding) count = nexus.maxSeeding
  const seed_bonus = valuetwo * Math.atan(A / nexus.l) + nexus.perSeeding * count
  return { seed_bonus, A, count }
}

/**
 * ClaimRepository::settleUser (above) over the user's claims, run at `now` (epoch seconds) in the month
 * `thisMonth` (year × 12 + month − 1, the site's time). `torrents`: the `torrents` rows by id.
 */
export function settleUser(
  claims: readonly NexusClaim[],
  torrents: ReadonlyMap<number, NexusTorrent>,
  now: number,
  startOfThisMonth: { month: number; at: number },
  nexus = NEXUS,
): NexusSettlement {
  const reachedTorrentIdArr: number[] = []
  const unReachedIdArr: number[] = []
  const toUpdateIdArr: number[] = []
  let totalSeedTime = 0
  for (const row of claims) {
    if (row.lastSettleAt !== null && row.lastSettleAt >= startOfThisMonth.at) {
      return { settled: false, bonusFinal: 0, totalDeduct: 0, reached: [], removed: [], updated: [], seedBonus: 0, hoursAvg: 0 }
    }
    const size = torrents.get(row.torrentId)!.size
    if (row.snatch.seedtime - row.seedTimeBegin >= nexus.hours * 3600 || row.snatch.uploaded - row.uploadedBegin >= nexus.times * size) {
      reachedTorrentIdArr.push(row.torrentId)
      toUpdateIdArr.push(row.id)
      totalSeedTime += row.snatch.seedtime - row.seedTimeBegin
    } else if (startOfThisMonth.month - row.createdMonth > 1) {
      unReachedIdArr.push(row.id)
    } else {
      toUpdateIdArr.push(row.id)
    }
  }
  const bonusResult = calculateSeedBonus(
    reachedTorrentIdArr.map((id) => torrents.get(id)!),
    now,
    nexus,
  )
  const seedTimeHoursAvg = totalSeedTime / (reachedTorrentIdArr.length || 1) / 3600
  const bonusFinal = bonusResult.seed_bonus * seedTimeHoursAvg * nexus.multiplier
  return {
    settled: true,
    bonusFinal,
    totalDeduct: nexus.deduct * unReachedIdArr.length,
    reached: reachedTorrentIdArr,
    removed: unReachedIdArr,
    updated: toUpdateIdArr,
    seedBonus: bonusResult.seed_bonus,
    hoursAvg: seedTimeHoursAvg,
  }
}
