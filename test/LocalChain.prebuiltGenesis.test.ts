/**
 * The genesis `npm run build` keeps for the default local-chain parameters (dist/genesis/, what a
 * first start in a new data directory imports instead of building) is exactly what building it now
 * gives, and a chain on a new data directory starts from it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { defaultLocalChainConfig } from "../src/chain/LocalChainConfig.js"
import { MiningMode } from "../src/chain/MiningMode.js"
import { buildGenesisFor, LocalChain, prebuiltGenesisFile } from "../src/LocalChain.js"

describe("the prebuilt default local genesis", () => {
  it("is what a build of the default parameters gives", () => {
    const file = prebuiltGenesisFile(defaultLocalChainConfig)
    expect(file).toBeDefined()
    if (!existsSync(file!)) throw new Error(`${file} is missing: npm run build makes it`)
    expect(new Uint8Array(readFileSync(file!))).toEqual(buildGenesisFor(defaultLocalChainConfig))
  })

  it("is not used for other parameters", () => {
    expect(prebuiltGenesisFile({ ...defaultLocalChainConfig, accounts: 9 })).not.toBe(
      prebuiltGenesisFile(defaultLocalChainConfig)
    )
    expect(prebuiltGenesisFile({ ...defaultLocalChainConfig, chainId: 5 })).not.toBe(
      prebuiltGenesisFile(defaultLocalChainConfig)
    )
  })

  it("is what a new data directory starts from, and keeps", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "movenode-prebuilt-"))
    const start = () =>
      Effect.runPromise(
        Effect.scoped(
          Effect.map(
            LocalChain.spawn({ dataDir, accounts: defaultLocalChainConfig.accounts, mining: MiningMode.manual }),
            (chain) => chain.genesisSource
          )
        )
      )
    try {
      expect(await start()).toBe("prebuilt")
      expect(readFileSync(join(dataDir, "genesis.blob"))).toEqual(
        readFileSync(prebuiltGenesisFile(defaultLocalChainConfig)!)
      )
      expect(await start()).toBe("kept")
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
