/**
 * Client input quoted in error messages, bounded: whatever a client sends (a 8 MB string, a
 * million-element array), a message quotes at most a prefix of a few hundred characters, so an
 * error never costs more than a small fixed amount to build, render and send.
 */

/** Longest prefix of client input an error message quotes (UTF-16 code units). */
export const QUOTE_MAX = 200

/** `s` itself when short, else its first `max` characters and how long it was. */
export const boundedPrefix = (s: string, max: number = QUOTE_MAX): string =>
  s.length <= max ? s : `${s.slice(0, max)}… (${s.length} characters)`

/**
 * `JSON.stringify(s)` of a bounded prefix: `"abc"`, or `"abc…" (8388608 characters)` for a long
 * one. The cut never splits a surrogate pair into a lone half.
 */
export const quoteString = (s: string, max: number = QUOTE_MAX): string => {
  if (s.length <= max) return JSON.stringify(s)
  let end = max
  const last = s.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end--
  return `${JSON.stringify(s.slice(0, end))}… (${s.length} characters)`
}

/** How `printBounded` spells a JSON value: scalars, and the opening of arrays and objects. */
export interface JsonStyle {
  /** A scalar's text (`room`: characters left), or undefined for arrays and objects. */
  readonly scalar: (v: unknown, room: number) => string | undefined
  readonly arrayOpen: string
  readonly objectOpen: string
  /** An object key and its separator (`"k": `). */
  readonly key: (k: string) => string
}

/** Pending output: a literal, or a value still to print. */
type Item = { readonly text: string } | { readonly value: unknown }

/** The `count` smallest keys of `o` in code-unit order, without sorting them all. */
const smallestKeys = (o: object, count: number): { keys: string[]; total: number } => {
  const keys: string[] = []
  let total = 0
  for (const k in o) {
    if (!Object.hasOwn(o, k)) continue
    total++
    if (keys.length === count && k >= keys[count - 1]!) continue
    let lo = 0
    let hi = keys.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (keys[mid]! < k) lo = mid + 1
      else hi = mid
    }
    keys.splice(lo, 0, k)
    if (keys.length > count) keys.pop()
  }
  return { keys, total }
}

/**
 * A JSON value (as `JSON.parse` builds them) printed in `style`, at most about `budget` characters:
 * printing stops once they are out (the text then ends in `…`), an array or object shows only the
 * elements that can fit (then `, …`), an object's keys come sorted (only as many as can be printed
 * are ever sorted), and nesting is walked with an explicit stack. So the cost is bounded by the
 * budget, whatever the value's size or shape.
 */
export const printBounded = (v: unknown, style: JsonStyle, budget: number = QUOTE_MAX): string => {
  const stack: Item[] = [{ value: v }]
  let out = ""
  while (stack.length > 0) {
    if (out.length >= budget) return `${out}…`
    const item = stack.pop()!
    if ("text" in item) {
      out += item.text
      continue
    }
    const x = item.value
    const s = style.scalar(x, budget - out.length)
    if (s !== undefined) {
      out += s
      continue
    }
    // Each element prints at least a few characters: never look at more of them than can be printed.
    const room = Math.max(1, Math.ceil((budget - out.length) / 3))
    if (Array.isArray(x)) {
      out += style.arrayOpen
      stack.push({ text: "]" })
      const shown = Math.min(x.length, room)
      if (shown < x.length) stack.push({ text: ", …" })
      for (let i = shown - 1; i >= 0; i--) {
        stack.push({ value: x[i] })
        if (i > 0) stack.push({ text: ", " })
      }
      continue
    }
    const o = x as Record<string, unknown>
    const { keys, total } = smallestKeys(o, room)
    out += style.objectOpen
    stack.push({ text: "}" })
    if (keys.length < total) stack.push({ text: ", …" })
    for (let i = keys.length - 1; i >= 0; i--) {
      stack.push({ value: o[keys[i]!] })
      stack.push({ text: style.key(keys[i]!) })
      if (i > 0) stack.push({ text: ", " })
    }
  }
  return out
}

const jsonStyle: JsonStyle = {
  scalar: (v, room) => {
    if (v === null || v === undefined) return "null"
    if (typeof v === "string") return quoteString(v, Math.max(8, Math.min(room, QUOTE_MAX)))
    if (typeof v === "object") return undefined
    return String(v)
  },
  arrayOpen: "[",
  objectOpen: "{",
  key: (k) => `${quoteString(k, 64)}: `
}

/** A JSON value as JSON text (keys sorted), bounded as `printBounded`. */
export const jsonPrefix = (v: unknown, budget: number = QUOTE_MAX): string => printBounded(v, jsonStyle, budget)
