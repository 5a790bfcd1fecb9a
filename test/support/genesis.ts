/**
 * Test helper: the one place tests find genesis blobs.
 *
 * - `devnet`: the blob the package ships, `genesis/devnet.blob` in this checkout (always there).
 * - `mainnet`: the 2022 mainnet genesis, not shipped: read from `../shared/genesis/mainnet.blob`
 *   beside the checkout when it exists. Tests that need it ask `hasGenesis("mainnet")` (or use
 *   `describeWithGenesis` / `genesisNamesPresent`), so a clone with nothing beside it still passes;
 *   each skip says so (a skipped test named after the missing file, and one warning per process).
 *
 * `MOVENODE_TEST_WITHOUT=mainnet npm test` runs the suite as a clone with nothing beside it does
 * (the blob is treated as absent even when ../shared has it): an unguarded use fails there.
 */
import { existsSync, readFileSync } from "node:fs"
import { dirname, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, it } from "vitest"

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..")

export type GenesisName = "devnet" | "mainnet"

export const ALL_GENESIS: ReadonlyArray<GenesisName> = ["devnet", "mainnet"]

/** Where the blob is (or would be). */
export const genesisPath = (name: GenesisName): string =>
  name === "devnet"
    ? resolve(repoRoot, "genesis", "devnet.blob")
    : resolve(repoRoot, "..", "shared", "genesis", `${name}.blob`)

const warned = new Set<GenesisName>()
const treatedAsAbsent = new Set((process.env.MOVENODE_TEST_WITHOUT ?? "").split(","))
const present = (name: GenesisName): boolean => !treatedAsAbsent.has(name) && existsSync(genesisPath(name))

/** Whether the blob is there; the first miss in a process prints why the tests that need it skip. */
export const hasGenesis = (name: GenesisName): boolean => {
  if (present(name)) return true
  if (!warned.has(name)) {
    warned.add(name)
    console.warn(`[movenode tests] ${genesisPath(name)} not found: the ${name} genesis cases are skipped`)
  }
  return false
}

/** The names among `names` whose blob is present (the missing ones are reported by `hasGenesis`). */
export const genesisNamesPresent = (names: ReadonlyArray<GenesisName> = ALL_GENESIS): Array<GenesisName> =>
  names.filter(hasGenesis)

/**
 * `describe(title, body)` when the blob is there; otherwise one skipped test whose name says which
 * file is missing (`body` is not run, so it may read the blob at collection time).
 */
export const describeWithGenesis = (name: GenesisName, title: string, body: () => void): void => {
  if (hasGenesis(name)) describe(title, body)
  else it.skip(`${title} (skipped: ${genesisPath(name)} not found)`, () => {})
}

/** `describeWithGenesis` for each name; `%s` in the title is replaced by the name. */
export const describeEachGenesis = (
  names: ReadonlyArray<GenesisName>,
  title: string,
  body: (name: GenesisName) => void
): void => {
  for (const name of names) describeWithGenesis(name, title.replace("%s", name), () => body(name))
}

const cache = new Map<GenesisName, Uint8Array>()

/** The blob's bytes (read once per process; callers must not mutate them). Throws when absent. */
export const loadGenesisBytes = (name: GenesisName): Uint8Array => {
  let bytes = cache.get(name)
  if (bytes === undefined) {
    const path = genesisPath(name)
    if (!present(name))
      throw new Error(`${path} not found: guard this test with hasGenesis("${name}") or describeWithGenesis`)
    const buf = readFileSync(path)
    bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength)
    cache.set(name, bytes)
  }
  return bytes
}
