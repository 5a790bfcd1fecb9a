import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"

const HASH = /^[0-9a-f]{40}([0-9a-f]{24})?$/

/**
 * The commit a checkout at `root` is on (`.git/HEAD`, a loose ref or `packed-refs`), for the
 * `git_hash` of `GET /v1`; undefined outside a git checkout (an npm install) or when unreadable.
 * Read from the files rather than by running git, so it costs no process and needs no git binary.
 */
export const readGitHash = (root: string): string | undefined => {
  try {
    const gitDir = join(root, ".git")
    const head = readFileSync(join(gitDir, "HEAD"), "utf8").trim()
    if (HASH.test(head)) return head // detached HEAD
    const ref = /^ref: (refs\/[\w./-]+)$/.exec(head)?.[1]
    if (ref === undefined || ref.includes("..")) return undefined
    try {
      const loose = readFileSync(join(gitDir, ref), "utf8").trim()
      if (HASH.test(loose)) return loose
    } catch {
      // not a loose ref: look in packed-refs
    }
    for (const line of readFileSync(join(gitDir, "packed-refs"), "utf8").split("\n")) {
      const [hash, name] = line.split(" ")
      if (name === ref && hash !== undefined && HASH.test(hash)) return hash
    }
    return undefined
  } catch {
    return undefined
  }
}

/**
 * The directory of the package that holds `fromDir` (the nearest one up whose package.json is
 * named `name`), or undefined. The command runs from dist/ (tsc) or dist/bin/ (the bundle), so the
 * checkout root is found by looking, not by a fixed number of `..`.
 */
export const packageRootOf = (fromDir: string, name: string, maxLevels = 4): string | undefined => {
  let dir = fromDir
  for (let i = 0; i <= maxLevels; i++) {
    try {
      if (JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))?.name === name) return dir
    } catch {
      // no (readable) package.json here: look one level up
    }
    const parent = dirname(dir)
    if (parent === dir) return undefined
    dir = parent
  }
  return undefined
}
