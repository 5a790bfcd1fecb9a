// Node 20 lacks Map.groupBy / Object.groupBy, which parts of vitest 5 call inside test workers too.
if (typeof (Map as any).groupBy !== "function") {
  ;(Map as any).groupBy = <K, V>(items: Iterable<V>, key: (item: V, index: number) => K): Map<K, V[]> => {
    const out = new Map<K, V[]>()
    let i = 0
    for (const item of items) {
      const k = key(item, i++)
      const bucket = out.get(k)
      if (bucket) bucket.push(item)
      else out.set(k, [item])
    }
    return out
  }
}
