/**
 * Splits a query string into its first value per name. Bounded: at most `MAX_PARAMS` pairs are
 * looked at, and values are decoded only when they contain an escape.
 */
const MAX_PARAMS = 64

export const parseQuery = (qs: string): Map<string, string> | string => {
  const out = new Map<string, string>()
  if (qs === "") return out
  const pairs = qs.split("&", MAX_PARAMS)
  for (const pair of pairs) {
    if (pair === "") continue
    const eq = pair.indexOf("=")
    const rawName = eq < 0 ? pair : pair.slice(0, eq)
    const rawValue = eq < 0 ? "" : pair.slice(eq + 1)
    let name: string
    let value: string
    try {
      name = rawName.includes("%") || rawName.includes("+") ? decodeURIComponent(rawName.replace(/\+/g, " ")) : rawName
      value =
        rawValue.includes("%") || rawValue.includes("+") ? decodeURIComponent(rawValue.replace(/\+/g, " ")) : rawValue
    } catch {
      return `failed to parse query: invalid percent-encoding in "${pair.slice(0, 100)}"`
    }
    if (!out.has(name)) out.set(name, value)
  }
  return out
}
