/** Test helper: the shared genesis blobs, read from `../shared/genesis/<name>.blob` beside the repo. */
import { readFileSync } from "node:fs"
import { dirname, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..")

export type GenesisName = "devnet" | "mainnet"

export const genesisPath = (name: GenesisName): string => resolve(repoRoot, "..", "shared", "genesis", `${name}.blob`)

const cache = new Map<GenesisName, Uint8Array>()

/** The blob's bytes (read once per process; callers must not mutate them). */
export const loadGenesisBytes = (name: GenesisName): Uint8Array => {
  let bytes = cache.get(name)
  if (bytes === undefined) {
    const buf = readFileSync(genesisPath(name))
    bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength)
    cache.set(name, bytes)
  }
  return bytes
}
