/**
 * Sorts `items` in place by `compare`, stably. The lists a node sorts per transaction (a write set,
 * a resource group's members, a Move value's JSON keys) hold a handful of elements: below 32 an
 * insertion sort, which allocates nothing (`Array.prototype.sort` with a comparator copies into a
 * work array: 5 % of a transfer's allocations once, issue 22); larger arrays take the built-in sort.
 */
export const sortInPlace = <T>(items: T[], compare: (a: T, b: T) => number): T[] => {
  const n = items.length
  if (n >= 32) return items.sort(compare)
  for (let i = 1; i < n; i++) {
    const item = items[i]!
    let j = i - 1
    while (j >= 0 && compare(items[j]!, item) > 0) {
      items[j + 1] = items[j]!
      j--
    }
    items[j + 1] = item
  }
  return items
}
