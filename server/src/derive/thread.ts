/** The derive thread (started by offload.ts; bundled as dist/derive-worker.js): runs passes on its own connections. */
import { threadDatabase } from '../db/thread-database'
import { serveJobs } from '../util/job-thread'
import { derive } from './index'
import type { DeriveThreadJob } from './offload'

serveJobs<DeriveThreadJob>(async ({ file, now, full }) => ({ value: await derive(await threadDatabase(file), { now, full }) }))
