/**
 * Counter snapshots: what the wage engine needs to compute any month (each record's gain in it)
 * without keeping a dense daily copy of millions of records forever.
 *
 * - A snapshot of day D holds every seed record's (seed_time_sec, uploaded) as of the first sync
 *   on or after D 00:00 in the rules' time zone (the sync runs every SYNC_INTERVAL, so at most
 *   that late). It is written in-engine (`insert … select` from seed_records), in id ranges.
 * - Kept forever: the first snapshot day of every calendar month — normally the 1st; if the server
 *   was down on the 1st, the first day it ran. Those are the period boundaries: a month's gain is
 *   counters(first snapshot of next month) − counters(first snapshot of the month).
 * - Kept for ROLLING_SNAPSHOT_DAYS: every other day, for corrections and partial periods.
 * - The first snapshot day of a month also keeps the seeders of every torrent that has seed records
 *   (torrent_seeder_snapshots, migration 0031): `N` of the previous month's wage, read at its end.
 *   That day only — never a row per torrent per day — and deleted with its day.
 *
 * Size: ~25 bytes a row (clustered on (day, record_id)); at 2,000,000 records that is ~50 MB per
 * snapshot, so ~0.6 GB a year for the month starts plus ~0.4 GB for the rolling days; the seeders
 * (≤ 200,000 torrents, ~15 bytes a row) add ~3 MB a month.
 */
export const ROLLING_SNAPSHOT_DAYS = 8
