/**
 * The one way a source writes the mirror of the site (the site_* tables; their columns in
 * columns.ts): upserts and deletes by the site's own `id`, with the derivation queued in the same
 * transaction (derive/queue.ts) so that a committed mirror change is never missed by the next pass.
 *
 * Rows are in mirror terms (epoch ms, 0/1 for yes/no, lower-case hex hashes). A table's unique key
 * besides `id`: the site may delete a row and create it again under a new id, so a row holding such
 * a key under another id is replaced, never a conflict.
 */
export { mirrorTables, type MirrorTable } from './columns'
export { deleteMirror } from './delete'
export { type FreshCover, insertMirrorFresh, nextPassIsFull } from './fresh'
export { type MirrorRows, uniqueKeys } from './rows'
export { upsertMirror } from './upsert'
