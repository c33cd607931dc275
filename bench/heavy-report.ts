/** bench:heavy's results (bench/results/heavy-<dialect>[-<label>].json) and their section of BENCHMARKS.md. */
import { cpus, totalmem } from 'node:os'
import type { Dialect } from './dataset'
import { STREAMS } from './heavy-streams'
import { labelledRuns, type ServerRunMeta } from './report'

export interface StreamStats {
  n: number
  errors: number
  p50: number
  p95: number
  p99: number
  max: number
}

export interface PhaseResult {
  name: string
  /** Times the job ran in the window (0: the baseline). */
  runs: number
  /** Seconds per run of the job (null: the baseline). */
  jobSec: { mean: number; max: number } | null
  /** Seconds the phase lasted. */
  seconds: number
  streams: Record<string, StreamStats>
  /** The server's peak RSS (VmHWM) when the phase ended, MB: which job raised it. */
  peakRssMb?: number | null
  /** The server's peak RSS during this phase alone (VmHWM reset as it began), MB; runs before session 10 lack it. */
  phasePeakRssMb?: number | null
}

/** `commit`: the bench's own checkout unless --server-root. */
export interface HeavyReport extends ServerRunMeta {
  period: string
  ratePerStream: number
  windowSec: number
  /** The server process's peak resident memory over the whole run (VmHWM), MB. */
  peakRssMb?: number | null
  /** The server ran bundled, as `npm run server` runs it (absent in runs before 2026-11-24's session 9: tsx from the sources). */
  built?: boolean
  phases: PhaseResult[]
}
export const ms = (value: number) => (Number.isNaN(value) ? '—' : value >= 100 ? value.toFixed(0) : value.toFixed(1))
const runName = (r: HeavyReport) => `${r.label ?? 'now'} (${r.commit ?? '?'})`

/** The "heavy" section of BENCHMARKS.md, markers included, from the saved runs. */
export function render(): string {
  const cpu = cpus()
  const lines = [
    '<!-- heavy:begin -->',
    '## Requests while heavy work runs',
    '',
    '`npm run bench:heavy` (bench/heavy-work.ts) starts the real server as bench:load does (its own process,',
    '`NODE_ENV=production`, loopback, the demo data at `DEMO_SIZE=default`: 200 members, 20,000 torrents, ~218,000',
    'seed records — not the 2 M of the large set) and runs one phase after the other: no job (a baseline, first and',
    'last), then each heavy job through the API again and again for the window — the statistics refresh, a wage',
    'preview and a wage compute of last month, a rules change and back (each a full derivation pass), a sync (the',
    'demo source, incremental derivation, snapshot, daily aggregates, statistics). Meanwhile streams of requests',
    'run, each from 2 clients on keep-alive connections, 20 req/s together: `GET /health` (one database read, no',
    "login), page-seed's first page (admin, 20 rows) and, since 2026-11-24 (session 9), an admin's write (a member's",
    'remark changed back and forth: a users row and an operation-log row in one transaction). A client sends one',
    'request at a time (one that answers late',
    'is followed by the next at once, the missed sends are not made up), so a figure is what one request waited from',
    'sending to its whole answer, and fewer requests (`n` in the JSON) is the other sign of a stall. The job column is',
    "the job's own time per run, as its caller saw it.",
    '',
    `Machine: ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown CPU'}), ${Math.round(totalmem() / 1024 ** 3)} GB RAM, Node ${process.version}; the`,
    "same 2 cores run the server, the bench, the database (PostgreSQL) and other engineers' test suites: the load",
    'average is given per run.',
    '',
  ]
  for (const dialect of ['sqlite', 'postgres'] as Dialect[]) {
    const runs = labelledRuns<HeavyReport>('heavy', dialect)
    const latest = runs.at(-1)
    if (!latest) continue
    lines.push(`### ${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`, '')
    for (const run of runs) {
      // Runs before a stream existed have no column for it.
      const streams = STREAMS.filter((s) => run.phases.some((p) => p.streams[s.name]))
      const ownPeaks = run.phases.some((p) => p.phasePeakRssMb != null)
      lines.push(
        `**${runName(run)}** — ${run.date.slice(0, 16).replace('T', ' ')} UTC · DEMO_SIZE=${run.size} · wages of ${run.period} · ${run.ratePerStream} req/s per stream over ${run.connections} connections · ` +
          `${run.windowSec} s per job · load average ${run.load[0].toFixed(1)} → ${run.load[1].toFixed(1)} on ${run.cores} cores` +
          `${run.peakRssMb ? ` · server peak RSS ${run.peakRssMb} MB` : ''} · server ${run.built ? 'built (dist/)' : 'from its sources (tsx)'}` +
          `${run.note ? ` · ${run.note}` : ''}`,
        '',
        `| phase | job: runs × mean (max) | ${streams.map((s) => `${s.short} p50 | p95 | p99 | max`).join(' | ')} | server peak RSS MB |${ownPeaks ? " the phase's own peak RSS MB |" : ''}`,
        `|---|---|${streams.map(() => '---:|---:|---:|---:|').join('')}---:|${ownPeaks ? '---:|' : ''}`,
      )
      for (const p of run.phases) {
        const job = p.jobSec ? `${p.runs} × ${p.jobSec.mean.toFixed(2)} s (${p.jobSec.max.toFixed(2)} s)` : `— (${p.seconds.toFixed(0)} s)`
        const cells = streams.map((s) => {
          const st = p.streams[s.name]
          return st
            ? `${ms(st.p50)} | ${ms(st.p95)} | ${ms(st.p99)} | ${ms(st.max)}${st.errors ? ` (${st.errors} errors)` : ''}`
            : ' | | | '
        })
        lines.push(`| ${p.name} | ${job} | ${cells.join(' | ')} | ${p.peakRssMb ?? ''} |${ownPeaks ? ` ${p.phasePeakRssMb ?? ''} |` : ''}`)
      }
      lines.push('')
    }
    if (runs.length > 1) {
      for (const stream of ['page-seed first page', 'admin write (user/update)']) {
        if (!runs.some((r) => r.phases.some((p) => p.streams[stream]))) continue
        lines.push(`Side by side — ${stream} p99 / max ms while the job runs (job mean s):`, '')
        lines.push(`| phase | ${runs.map(runName).join(' | ')} |`, `|---|${runs.map(() => '---:').join('|')}|`)
        for (const p of latest.phases) {
          const cells = runs.map((r) => {
            const x = r.phases.find((y) => y.name === p.name)
            const st = x?.streams[stream]
            return x && st ? `${ms(st.p99)} / ${ms(st.max)}${x.jobSec ? ` (${x.jobSec.mean.toFixed(2)} s)` : ''}` : ''
          })
          lines.push(`| ${p.name} | ${cells.join(' | ')} |`)
        }
        lines.push('')
      }
    }
  }
  lines.push(HEAVY_NOTES.trim(), '<!-- heavy:end -->')
  return lines.join('\n')
}

const HEAVY_NOTES = `
### What the figures say (2026-11-24)

- **SQLite, before (0ea16f6): a request sent during a wage preview or compute waited for the whole job**
  (page-seed p50 ≈ the job's own time: 1.37 s during a 1.40 s compute; ~20 of the 300 requests a stream would
  send were answered). better-sqlite3 runs each statement synchronously and the awaits on it resolve as
  microtasks, so a job that never waits for a timer or real I/O keeps the event loop until it ends. The reader
  connection alone (fc425ca) changed nothing measurable — the writer lock was not what requests waited for.
- **The fix (9843fe1, e3aada3):** the SQLite driver gives the loop a turn every 10 ms of statements
  (\`db/sqlite-routing.ts\` EventLoopTurns; a turn the job takes by itself counts), the wage reader's ranges are
  20,000 record ids (one synchronous statement each; 100,000 held requests for 100–300 ms), and the wage engine
  and bulk inserts yield between their JavaScript batches. Page-seed during a compute: p50 1,371 → 131 ms,
  max 4,075 → 516 ms; preview p50 964 → 151 ms, max 1,777 → 323 ms; two full derivations max 1,198 → 438 ms; a
  sync max 6,217 → 1,984 ms — with the jobs no slower (compute 1.40 → 1.22 s; load average 6–8 on 2 cores in those
  runs, so ±30% between runs). The \`range20k\` column is the driver's turns with the smaller ranges, before the
  engine's own yields.
- **The \`in-process\` column** (42a6bfd, the driver's turns, 8,000-record derivation batches, the demo source's
  whole-table steps in 25,000-id ranges) and **\`now\`** (wage jobs in a worker thread, \`wages/offload.ts\`) are the
  same machine, quiet (load ~1), minutes apart. In the worker the wage reader's statements and the formula hold the
  worker's own loop; the server's is free: page-seed during a preview p99 114 → **5.0 ms**, during a compute 125 →
  **29.7 ms** (what is left is the compute's write transaction, on the server's one writer, in 10 ms slices), jobs no
  slower (0.40 / 0.50 s both). Still above 100 ms on SQLite: a sync (p99 ~250 ms: the demo source's range statements
  and the derivation's 8,000-record batches run on the server's writer) — derivations alone are at ~95 ms. The
  server's peak RSS (VmHWM) over the whole run: 758 MB in-process, 514 MB now (default data set; the worker lives
  60 s after its last job). The large (2 M records) set is not measured here.
- **The sync thread** (\`no-threads\` = ec161ad against \`now\`, same machine, quiet, minutes apart): the sync's
  steps (source, derivation, snapshot, daily aggregates) and the relabelling passes after admin changes run in a
  worker thread on a writer and a reader of its own (\`jobs/sync-offload.ts\`). The server's loop only reads
  meanwhile (WAL: the last commit at once); a request that writes waits for the thread's current transaction on
  a timer (\`db/sqlite-routing.ts\` busyRetry) instead of SQLite's busy handler, which sleeps on the calling
  thread. Page-seed p99 during a sync 324 → **6.6 ms**, during the two full derivations 130 → **7.5 ms**; the jobs
  take as long as before (sync 5.8 / 6.3 s, derivations 5.4 / 5.5 s). Peak RSS 609 → 550 MB (the thread lives 60 s
  after its last job; a first try with the relabelling in a second thread of its own peaked at 749 MB).
  Every SQLite phase is now at page-seed p99 ≤ 100 ms.
- **The large set** (\`large\`: 2,000,000 records, SQLite, the server in its own process as above). Its first run
  (2026-11-24 13:05, the sync thread in place) had two phases above 100 ms: the statistics refresh (p99 120 ms:
  each refresh held the loop ~90 ms, 70 ms of it a scan of torrent_labels) and the wage compute (p99 184 ms: its
  write transaction on the server's writer — a 230 ms delete of the month's item sets and a 410 ms commit).
  Fixed: an index holding the torrent figures' columns (migration 0022: the refresh 90 → 20 ms) and the compute's
  writes on the wage thread's own writer. The table's run after both: page-seed p99 22.7 ms during the refresh
  loop, 6.7 ms during computes, 6.3 ms during the full derivations (50 s for two), 6.8 ms during a 144 s sync.
  One request in that sync waited 623 ms: the session's once-a-minute \`last_seen_at\` write, which waited for the
  sync thread's open batch — since then written after the answer (\`auth/sessions.ts\`). **Memory is not at the
  500 MB target at this size**: the server's peak RSS is 805 MB after one run of each job and 902 MB at the end
  (the wage thread holds the month's columns and item sets, the sync thread its own page caches; the main thread's
  share was not separated). The first run's 1,000 MB includes generating the data set in the same process.
- **Writes during heavy work** (the \`admin write\` stream, new in session 9; \`large-before-turns\` = d67478d
  against \`large-turns\` = d5af4e8, same machine, minutes apart, large set, server from its sources). A
  request's write waits for the current write transaction of whichever thread holds SQLite's one write lock.
  Before: during a 141 s sync p95 895 ms, p99 1.2 s, **max 17.7 s and one write failed** (SQLITE_BUSY after
  the 15 s lock wait): the demo source's whole step was one transaction (~18 s at 2 M records), and the sync
  thread began each derivation transaction microseconds after its commit, which a write polling on a timer
  rarely caught. After: the thread's connections give way to the server's waiting writes before each
  transaction (\`db/write-turns.ts\`, a count in shared memory) and the demo step is a transaction per id range
  (longest 0.97 s): p95 763 ms, p99 1.0 s, **max 1.6 s, no error** in a 128 s sync. What a write still waits
  for is one derivation batch (8,000 records, ~0.9–1.1 s on this machine: ~0.4 s of it the commit writing the
  pages the batch dirtied in the seven indexes holding the counters) — bigger batches sync faster (the derivation
  alone: 115 s with 8,000, 79 s with 32,000 records) and make writes wait longer, so the batch stays at 8,000.
  During a wage compute a write waits for the compute's one transaction (~1.7 s at 2 M; exactly-once needs it whole).
- **Memory, the server as deployed** (\`large-built\`, session 9: the bench now runs \`dist/\` as \`npm run server\`
  does; from the sources, tsx's loader and transpiled modules were in every thread: 797–834 MB in this session's
  source runs against **768 MB** built, same jobs). Still above the 500 MB target. Where it goes — the built server
  started afresh on the large set for each job alone, its peak (VmHWM): started and idle 194 MB; a wage preview 470;
  a compute 554; the two full derivations 302; a sync **606** (the sync thread's page caches and the statistics
  refresh after it, whose wage estimates run in the wage thread like a preview). So the wage thread is the big
  part: in-process on a copy, a preview's peak is +240–300 MB over its start while its live data at the end is
  ~100 MB of heap and 38 MB of columns, and with a 96 MB old-space limit the same preview peaked at +141 MB at the
  same speed: most of the peak is garbage V8 has not collected yet (rows read 20,000 ids per statement). A hard
  heap limit on the thread would fail the job on a bigger site; reading the rows as a stream (each row garbage at
  once) is the next thing to try. The in-process derivation of a 2 M sync adds ~100 MB (its 64 MiB page cache).
  Then the wage reader's batches went from 2,000 to 100 torrents (d06b4d1): per job alone, built, a preview
  470 → 329 / 277 MB, a compute 554 → 510 MB. The whole run after it (\`large-built-batch100\`) peaked at 840 MB,
  not lower than the 768 of \`large-built\`: its peak came in the full derivations, with the wage thread (after a
  compute) and the sync thread alive together — which job overlaps which varies from run to run. Not reached.
- **Memory, session 10** (built server, large set, this session's host; \`large-idle10\` = 06efe96 against
  \`large-idle10-gc\` = 5c6cad1, same hour; \`large-trim\` and \`large-phase-peaks\` = the latter with
  \`MALLOC_TRIM_THRESHOLD_=131072\`). Job by job first (a fresh server per job, its VmHWM and VmRSS): after a compute
  the wage thread held ~340 MB (472 MB RSS, 131 MB once the thread had exited), and computes back to back in one
  thread climbed 462 → 546 → 548 → 568 MB — each job built its columns next to the last one's uncollected garbage.
  Three changes: a job thread ends **10 s** after its last job (was 60 s); it runs a **full garbage collection after
  each job and, in a compute, between reading and writing** (\`util/job-gc.ts\`: \`gc\` exposed in job threads
  only — the pause is the thread's, no request waits for it; the page-seed and admin-write columns show no change);
  computes back to back 568 → 444–469 MB. Whole run **721 → 609 MB**. A collection after the wage scan as well: no
  gain (not kept). What stayed after the threads exited is glibc's: memory a thread freed (its SQLite page caches,
  its allocations) is kept in the process for reuse — the dynamic trim threshold grows to tens of MB per arena —
  so the server sat at 209–253 MB after a few computes with no thread left, against 131 MB started. With
  \`MALLOC_TRIM_THRESHOLD_=131072\` (glibc's setting, recommended in README 部署 for Linux; it changes nothing
  else) a compute peaks at 374–388 MB instead of 420–469, and the process is back at 117 MB after it; the whole
  run **533 MB**. Still above 500: the rest is the server's own thread after a run of every job (~200–230 MB
  with no job thread alive: its two SQLite page caches, 32 + 64 MiB, fill with use; the answer caches) plus the
  job in flight (a compute ~+270 MB). The \`large-phase-peaks\` run (the same setting, 20 minutes later) gives each
  phase's own peak (VmHWM started afresh per phase, \`/proc/<pid>/clear_refs\`): sync 595, compute 524, preview 385,
  the two full derivations 384, refresh 242 MB — and peaked at 595 over the run, not 533: runs of one setting differ
  by ~60 MB. The sync is the phase to work on next: job by job, a sync right after the rules change and back peaks at
  552–567 MB, a sync after a sync at 212–238 MB (a fresh server each, the same thread reused in both). Emptying the
  sync thread's page caches before its answer (\`PRAGMA shrink_memory\`) did not lower it (567; not kept). Not yet
  separated: a rule change makes the next statistics refresh recompute the wage estimates at once (otherwise at
  most every 10 minutes), in the wage thread beside the sync thread. Ending the sync thread itself at the end of
  each sync, before the statistics refresh (\`jobs/sync.ts\`; the next sync is minutes away, a relabelling pass
  starts a new thread): the same rules-then-sync test 329 / 349 MB against 413 / 552 / 567 before.
  \`large-sync-closes\` (424e32d, the same setting): sync phase 595 → **453 MB**, whole run **515 MB** — its peak
  now the computes (515; the preview 341, the derivations 441). Not reached (≤ 500), within ~15 MB of it with the
  glibc setting; without it the runs above are ~75 MB higher.
- **Memory, session 11** (built server, large set, \`MALLOC_TRIM_THRESHOLD_=131072\`; \`large-arrays\` = a38d0ab
  against \`large-chunked-columns\` = 598e17b, the same hour). Job by job first (a fresh server, previews then computes
  in one wage thread): the wage thread's typed columns doubled as they grew — up to half empty, and the old copy
  alive beside the new one while growing; they now grow by chunks of 65,536 values (\`wages/columns.ts\`): a preview
  295–312 → **239–255 MB**, a compute 451–491 → **376–390 MB**, the jobs no slower. Whole runs: preview phase
  421 → 344 MB, compute 561 → **481 MB**, the derivations 432 / 459 MB — but the sync phase 467 → 612 MB, and the
  whole run 561 → 612 MB. The sync phase is what varies from run to run with the same code (439–612 MB in four runs
  today: the demo source advances by the time since the previous sync, and the wage estimates follow the sync in the
  wage thread); not separated yet, so **not reached** (≤ 500). Tried and not kept: the server's writer cache 64 → 16
  MiB once the first start is over (compute phase 563 against 561 MB: that cache does not fill when the jobs write in
  their threads); a full collection every 128 batches and 25 ranges in the wage thread (with the doubling columns
  preview 322, compute 492 MB but each job 10–20% slower; with chunks no gain). A run whose server generates the
  large set at its first start peaks at 1,070 MB during the generation (in the server's own thread) and stays at
  ~400 MB after it: generating the large demo set is a bench's first start, not a site's (a NexusPHP site's first
  sync runs in the sync thread).
- **Session 12** (2026-11-25, AMD EPYC, quiet; built server, large set, \`MALLOC_TRIM_THRESHOLD_=131072\`).
  \`large-announce-intervals\` (fadeb1f): the demo's peers now announce at NexusPHP's intervals (30–60 min by the
  torrent's age), so a sync grows a sixth to a third of them instead of all — the sync phase's sync 154–160 → 30.5 s
  (how long depends on the time since the previous one), its phase peak 612 → 480 MB; the whole run **498 MB**, its
  peak during the warm-up (each job once, back to back). \`large-reason-kinds\` (0621b8d): the wage thread no
  longer holds the reasons' texts of the month's 355,000 unqualified items until the compute ends (their kinds
  instead; each text is written when its member's items are stored) — job by job a compute's process peak 370–386 →
  295–327 MB (the thread's heap 105 → 19–27 MB used); in the whole run the compute phase 484 → **384 MB**, the
  whole run **482 MB** (rules changes 462, sync 480 — main ~290 MB with the request streams plus one job thread).
  What the main thread holds, measured with \`--trace-gc\` job by job: its V8 heap stays ~28–30 MB used; it grows
  from 127 MB at start to 215–231 MB after every job has run — SQLite's page caches (with 8 MiB caches everywhere
  instead of 64 + 32 MiB it ended at 157 MB, but the derivations were slower) and memory glibc keeps for the
  threads that ran. \`large-arena-max-2\` (0621b8d with glibc's \`MALLOC_ARENA_MAX=2\` too): phases 448 / 464 MB
  (rules / sync) but the warm-up 521 MB — not recommended. \`large-idle-others-end\` (8eaf311): a job starting in
  one thread ends the idle thread of the other kind at once (it kept its heap and page caches for 10 s beside the
  busy one): warm-up peak 482–521 → 451 MB, but that run's sync phase reached **550 MB**. Job by job, the sync's
  peak is at its very end, when the wage estimates run in a fresh wage thread after the sync thread ended: 417 MB
  in one run, 495 MB in another with the same code and sequence (the estimates' heap growth varies from run to
  run). Whole runs today 498, 482, 521, 550 MB: **not reached** (≤ 500) — most phases are under it in most runs,
  the sync phase is not reliably.
  **2026-11-25, later** (same host, slower disk reads than in the morning — every job ~1.5× longer):
  \`large-before-scan-helper\` (47179c5) against \`large-scan-helper\` (186df39, the server of 8be02f7: a preview or a compute reads half of
  its ranges in a helper thread, \`wages/parallel-scan.ts\`; item sets store reason kinds). Whole run 523 → **453 MB**
  (the sync phase 523 → 425; compute 373 → 423, preview 333 → 410 — the helper's isolate while it reads); page-seed
  p99 during preview / compute 11.7 / 12.5 → 10.1 / 9.0 ms. But the preview took 9.43 s against 6.54 s: that version
  compared the two snapshots only when the scan began (~1 s after the wage thread's began), and with an admin's write
  every ~100 ms in the streams most tries likely saw a commit in between and started again. Reverted (9d96709): the
  check is back to a window of a message's round trip; not re-run under the streams. Job by job without streams (built
  server, this data set): previews 6.8–9.4 s → 4.6–6.3 s, computes 8.7–10.1 → 6.4–6.6 s.
  **2026-11-25, session 14** (\`large-xeon\`, 316dea3: the final check within a round trip, the reader's fewer values;
  an Intel Xeon host, where every job takes about half as long as on the AMD EPYC hosts of the runs before — the
  header's machine line is this run's): whole run **456 MB** (≤ 500 ✅; the two full derivations' phase is the peak,
  preview 379, compute 378, sync 419), page-seed p99 during preview / compute / sync 12.6 / 9.0 / 64.6 ms (one request
  in the sync waited 1.03 s: the session's once-a-minute touch behind a batch of the sync thread). A first run right
  after the server generated the data set (not kept) measured 1,069 MB: the generation's own peak, before listening.
  Then \`large-json-first\` (1ad389b, same host, half an hour later): a compute makes its item sets' JSON before its
  write transaction instead of inside it (\`wages/worker.ts\`; in-process the transaction 0.73–0.80 → 0.29–0.31 s).
  The admin's writes during the computes: p99 **623 → 146 ms**, max 632 → 166 ms; the compute phase's peak 378 → 360 MB
  (the collector's columns go once the JSON is made); whole run 461 MB (the sync phase; 419 in \`large-xeon\` — the
  sync's own peak varies from run to run, see above), page-seed p99 ≤ 36.7 ms in every phase.
- **PostgreSQL** was not changed by fc425ca and measures the same before and after: its statements run in the
  database's processes, so the loop is free while they run; what requests wait for is the wage engine's JS between
  statements (p95 ~0.2–0.3 s, max ≤ 0.6 s during preview and compute) and the 2 cores shared with the job. The
  \`now\` column (2026-11-24, Intel Xeon, quiet) has every phase at page-seed p99 ≤ 100 ms: preview 58, compute 81,
  sync 42 ms (the sync itself 9.9 s against 20.2 s in the \`loaded\` run: this session's derivation fixes and a quiet
  machine).
- The sync's own time varies from run to run: the demo source advances by the time since the previous sync.
`
