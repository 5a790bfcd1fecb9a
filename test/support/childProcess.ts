/** Test helper for the tests that start the built `movenode` command as a child process. */
import type { ChildProcess } from "node:child_process"

/** Resolves with the first stdout match of `pattern`; rejects when the child exits first or after `ms`. */
export const waitForLine = (child: ChildProcess, pattern: RegExp, ms: number): Promise<RegExpMatchArray> =>
  new Promise((resolvePromise, reject) => {
    let seen = ""
    const timer = setTimeout(() => reject(new Error(`no ${pattern} within ${ms} ms; output: ${seen}`)), ms)
    child.stdout!.on("data", (chunk: Buffer) => {
      seen += chunk.toString()
      const m = seen.match(pattern)
      if (m !== null) {
        clearTimeout(timer)
        resolvePromise(m)
      }
    })
    child.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`exited with ${code} before ${pattern}; output: ${seen}`))
    })
  })
