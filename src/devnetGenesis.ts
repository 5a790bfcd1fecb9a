/**
 * The genesis blob this package ships (`genesis/devnet.blob`: the Aptos devnet genesis of
 * 2026-07-16, public data; see genesis/README.md), found from wherever this module runs: dist/
 * (the library), dist/bin/ (the bundled command) or src/ (tests through a TypeScript loader).
 */
import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { packageRootOf } from "./gitHash.js"

/** The absolute path of the shipped devnet genesis blob. */
export const devnetGenesisPath = (): string => {
  const root = packageRootOf(dirname(fileURLToPath(import.meta.url)), "movenode")
  if (root === undefined) throw new Error("movenode: cannot find the package root holding genesis/devnet.blob")
  return join(root, "genesis", "devnet.blob")
}

/** The shipped devnet genesis blob's bytes (a fresh copy on each call). */
export const readDevnetGenesis = (): Uint8Array => new Uint8Array(readFileSync(devnetGenesisPath()))
