/**
 * What names the indexer's code in a kept index's key (`indexerSchemaExtra`, beside the genesis
 * parameters and the processors' names and tables): the built chunk that holds the processors
 * (`dist/bin/processorPipeline-<hash>.js`, rolldown's), hashed. That chunk holds the processors, the
 * store and what they import, and names the chunks it imports by their content's hash, so it
 * changes whenever the rows could; a build that changed only the REST API, the chain or the CLI
 * leaves it as it was, and a kept index resumes instead of re-indexing from version 0 (it used to
 * be keyed to the build's git commit: every new build re-indexed).
 *
 * Undefined without a build (the sources under vitest before `npm run build`): the caller then keys
 * the index to the package's version and commit, as before.
 */
import { createHash } from "node:crypto"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

const CHUNK = /^processorPipeline-[\w-]+\.js$/

const known = new Map<string, string | undefined>()

/** The processors' code key of the package at `root` (read once per root). */
export const processorsCodeKey = (root: string): string | undefined => {
  if (known.has(root)) return known.get(root)
  let key: string | undefined
  try {
    const dir = join(root, "dist", "bin")
    const chunks = readdirSync(dir).filter((f) => CHUNK.test(f))
    // One chunk per build (a stale second one would be a half-copied dist/: key nothing then).
    if (chunks.length === 1)
      key = createHash("sha256")
        .update(readFileSync(join(dir, chunks[0]!)))
        .digest("hex")
  } catch {
    key = undefined
  }
  known.set(root, key)
  return key
}
