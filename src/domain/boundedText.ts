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
