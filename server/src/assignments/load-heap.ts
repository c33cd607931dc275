/** A min-heap of members by (load, id): the least loaded member first, ties by id (deterministic). */
export class LoadHeap {
  private readonly items: { id: number; load: number }[] = []

  get size(): number {
    return this.items.length
  }

  private less(a: { id: number; load: number }, b: { id: number; load: number }): boolean {
    return a.load < b.load || (a.load === b.load && a.id < b.id)
  }

  push(item: { id: number; load: number }): void {
    const h = this.items
    h.push(item)
    let i = h.length - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (!this.less(h[i], h[parent])) break
      ;[h[i], h[parent]] = [h[parent], h[i]]
      i = parent
    }
  }

  pop(): { id: number; load: number } | undefined {
    const h = this.items
    if (h.length === 0) return undefined
    const top = h[0]
    const last = h.pop()!
    if (h.length) {
      h[0] = last
      let i = 0
      for (;;) {
        const l = 2 * i + 1
        const r = l + 1
        let m = i
        if (l < h.length && this.less(h[l], h[m])) m = l
        if (r < h.length && this.less(h[r], h[m])) m = r
        if (m === i) break
        ;[h[i], h[m]] = [h[m], h[i]]
        i = m
      }
    }
    return top
  }
}
