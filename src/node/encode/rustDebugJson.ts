import { type JsonStyle, printBounded, QUOTE_MAX, quoteString } from "../../domain/boundedText.js"

/**
 * JSON values printed as Rust's `{:?}` of a `serde_json::Value` (`String("0x1")`, `Number(1)`,
 * `Array [..]`, `Object {..}` with sorted keys), which the reference puts in its argument-count
 * error message. Bounded whatever the input's size or shape (`printBounded`): an argument list of
 * 800,000 nested arrays costs as much to print as one of three.
 */
const rustStyle: JsonStyle = {
  scalar: (v, room) => {
    if (v === null || v === undefined) return "Null"
    switch (typeof v) {
      case "boolean":
        return `Bool(${v})`
      case "number":
        return `Number(${v})`
      case "string":
        return `String(${quoteString(v, Math.max(8, Math.min(room, QUOTE_MAX)))})`
      case "object":
        return undefined
      default:
        return String(v)
    }
  },
  arrayOpen: "Array [",
  objectOpen: "Object {",
  key: (k) => `${quoteString(k, 64)}: `
}

/** One value as Rust's `{:?}`, at most about `budget` characters. */
export const rustDebugJson = (v: unknown, budget: number = QUOTE_MAX): string => printBounded(v, rustStyle, budget)

/** `[a, b, …]`: values as Rust's `{:?}` of a `Vec<Value>`, at most about `budget` characters in all. */
export const rustDebugJsonList = (values: ReadonlyArray<unknown>, budget: number = QUOTE_MAX): string =>
  `[${printBounded(values, rustStyle, budget + 6).slice("Array [".length)}`
