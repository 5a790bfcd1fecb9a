/**
 * A JSON value printed as Rust's `{:?}` of a `serde_json::Value` (`String("0x1")`, `Number(1)`,
 * `Array [..]`, `Object {..}` with sorted keys), which the reference puts in its argument-count
 * error message. Iterative over an explicit stack would be overkill: the body parser bounds depth.
 */
export const rustDebugJson = (v: unknown, depth = 0): string => {
  if (depth > 64) return "…"
  if (v === null || v === undefined) return "Null"
  switch (typeof v) {
    case "boolean":
      return `Bool(${v})`
    case "number":
      return `Number(${v})`
    case "string":
      return `String(${JSON.stringify(v)})`
    case "object": {
      if (Array.isArray(v)) return `Array [${v.map((x) => rustDebugJson(x, depth + 1)).join(", ")}]`
      const o = v as Record<string, unknown>
      const keys = Object.keys(o).sort()
      return `Object {${keys.map((k) => `${JSON.stringify(k)}: ${rustDebugJson(o[k], depth + 1)}`).join(", ")}}`
    }
    default:
      return String(v)
  }
}
