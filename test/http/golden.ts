import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { expect } from "vitest"

const dir = join(dirname(fileURLToPath(import.meta.url)), "goldens")

/**
 * A response as recorded in a golden file: status, the headers that matter, and the body: as JSON
 * when re-serializing it gives back the exact bytes (readable diffs), else as its raw text (so a
 * u64 above 2^53, which JSON.parse would round, is kept digit for digit).
 */
export interface Recorded {
  readonly status: number
  readonly headers: Record<string, string>
  readonly body: unknown
}

const bodyOf = (text: string): unknown => {
  try {
    const parsed = JSON.parse(text)
    return JSON.stringify(parsed) === text ? parsed : text
  } catch {
    return text
  }
}

export const record = async (r: Response): Promise<Recorded> => {
  const headers: Record<string, string> = {}
  for (const [k, v] of [...r.headers].sort(([a], [b]) => a.localeCompare(b)))
    if (k.startsWith("x-") || k === "content-type" || k === "allow") headers[k] = v
  return { status: r.status, headers, body: bodyOf(await r.text()) }
}

/**
 * Compares with `goldens/<name>.json`; `UPDATE_GOLDENS=1` rewrites it (review the diff). A
 * missing golden is a failure, not a silent pass.
 */
export const expectGolden = (name: string, actual: Recorded) => {
  const file = join(dir, `${name}.json`)
  const text = JSON.stringify(actual, null, 2) + "\n"
  if (process.env.UPDATE_GOLDENS === "1") {
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, text)
    return
  }
  expect(existsSync(file), `golden ${name} is missing: run with UPDATE_GOLDENS=1`).toBe(true)
  expect(text).toBe(readFileSync(file, "utf8"))
}
