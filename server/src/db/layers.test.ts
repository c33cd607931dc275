/**
 * The jobs (jobs/) sit above what they run: nothing jobs/ reaches may import jobs/ back. The sync
 * bookkeeping that readers need (the data version, the lease) lives here in db/, below both.
 * db/ is the floor: the sync lease and the admin write lock (write-lock.ts) live there so that
 * every writer can take them, and db/ imports no other folder at run time. The graph is the
 * run-time one of server/src (value imports, `import type` erased; tests and test helpers left
 * out), one node per top folder.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = resolve(__dirname, '..')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === 'test' || name === 'testing' ? [] : sourceFiles(path)
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : []
  })
}

/** Top folder of a file under server/src (`jobs/`), or the file itself at the top (`app.ts`). */
function nodeOf(file: string): string {
  const rel = relative(root, file)
  return rel.includes('/') ? `${rel.split('/')[0]}/` : rel
}

/** Folder → folders it imports at run time, each with the imports that make the edge. */
function folderGraph(): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>()
  const importPattern = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?[^'"]*?from\s+['"](\.[^'"]*)['"]|import\(\s*['"](\.[^'"]*)['"]\s*\)/g
  for (const file of sourceFiles(root)) {
    for (const match of readFileSync(file, 'utf8').matchAll(importPattern)) {
      if (match[1]) continue
      const target = resolve(dirname(file), match[2] ?? match[3])
      if (!target.startsWith(root + '/')) continue
      const [from, to] = [nodeOf(file), nodeOf(target)]
      if (from === to) continue
      const edges = graph.get(from) ?? new Map<string, string[]>()
      graph.set(from, edges)
      edges.set(to, [...(edges.get(to) ?? []), `${relative(root, file)} → ${match[2] ?? match[3]}`])
    }
  }
  return graph
}

describe('import layers', () => {
  it('nothing that jobs/ reaches imports jobs/ back', () => {
    const graph = folderGraph()
    const reached = new Set<string>()
    const queue = ['jobs/']
    while (queue.length) {
      for (const next of graph.get(queue.pop()!)?.keys() ?? []) {
        if (reached.has(next)) continue
        reached.add(next)
        queue.push(next)
      }
    }
    const upward = [...reached].filter((folder) => folder !== 'jobs/').flatMap((folder) => graph.get(folder)?.get('jobs/') ?? [])
    expect(upward).toEqual([])
    // The check sees the graph: jobs/ does reach the readers of the data version.
    expect(reached).toContain('stats/')
    expect(reached).toContain('db/')
  })

  it('db/ imports no other folder at run time', () => {
    const edges = folderGraph().get('db/') ?? new Map<string, string[]>()
    expect([...edges.values()].flat()).toEqual([])
  })
})
