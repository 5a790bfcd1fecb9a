import { readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"

const HASH = /^[0-9a-f]{40}([0-9a-f]{24})?$/

/** `<root>/.git`, or where a linked worktree's `.git` file points (`gitdir: …`). */
const gitDirOf = (root: string): string => {
  const dotGit = join(root, ".git")
  try {
    const link = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, "utf8"))?.[1]
    if (link !== undefined) return resolve(root, link.trim())
  } catch {
    // a directory (or nothing): used as it is
  }
  return dotGit
}

/** Where a worktree's shared refs live (its `commondir`), else the git directory itself. */
const commonDirOf = (gitDir: string): string => {
  try {
    return resolve(gitDir, readFileSync(join(gitDir, "commondir"), "utf8").trim())
  } catch {
    return gitDir
  }
}

/**
 * The commit a checkout at `root` is on (`.git/HEAD`, a loose ref or `packed-refs`; in a linked
 * worktree, its own HEAD and the main checkout's refs), for the `git_hash` of `GET /v1`; undefined
 * outside a git checkout (an npm install) or when unreadable. Read from the files rather than by
 * running git, so it costs no process and needs no git binary.
 */
export const readGitHash = (root: string): string | undefined => {
  try {
    const gitDir = gitDirOf(root)
    const head = readFileSync(join(gitDir, "HEAD"), "utf8").trim()
    if (HASH.test(head)) return head // detached HEAD
    const ref = /^ref: (refs\/[\w./-]+)$/.exec(head)?.[1]
    if (ref === undefined || ref.includes("..")) return undefined
    const common = commonDirOf(gitDir)
    for (const dir of gitDir === common ? [gitDir] : [gitDir, common]) {
      try {
        const loose = readFileSync(join(dir, ref), "utf8").trim()
        if (HASH.test(loose)) return loose
      } catch {
        // not a loose ref here
      }
    }
    for (const line of readFileSync(join(common, "packed-refs"), "utf8").split("\n")) {
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
