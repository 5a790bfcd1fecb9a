/** The genesis the package ships: where the library finds it, and that it is the documented blob. */
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { devnetGenesisPath, readDevnetGenesis } from "../src/index.js"
import { genesisPath } from "./support/genesis.js"

describe("the shipped devnet genesis", () => {
  it("is genesis/devnet.blob of this package, the blob genesis/README.md describes", () => {
    expect(devnetGenesisPath()).toBe(genesisPath("devnet"))
    const bytes = readDevnetGenesis()
    expect(bytes.length).toBe(1_434_491)
    const sha256 = createHash("sha256").update(bytes).digest("hex")
    expect(sha256).toBe("011e6840898245c77239a9f24c6a0a60080c1af48faaa40385b6b7995fd1e226")
    expect(readFileSync(new URL("../genesis/README.md", import.meta.url), "utf8")).toContain(sha256)
  })
})
