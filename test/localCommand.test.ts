import { fileURLToPath } from "node:url"
import { Context, Effect, Layer } from "effect"
import * as Result from "effect/Result"
import { describe, expect, it } from "vitest"
import { testLocalChainConfig } from "../src/chain/LocalChainConfig.js"
import { MiningMode } from "../src/chain/MiningMode.js"
import { parseCommand } from "../src/cli.js"
import { readGitHash } from "../src/gitHash.js"
import { LocalChain } from "../src/LocalChain.js"
import { localLayer } from "../src/localCommand.js"

/** The local chain's options as the command line gives them (with no command, or `local`). */
const ok = (args: string[]) => {
  const r = parseCommand(args)
  if (Result.isFailure(r)) throw new Error(r.failure.message)
  const resolved = r.success
  if (resolved._tag !== "Command" || resolved.command._tag !== "Local")
    throw new Error(`not the local chain: ${resolved._tag}`)
  return resolved.command.options
}
const refused = (args: string[]) => Result.isFailure(parseCommand(args))

describe("parseLocalCommand", () => {
  it("is what movenode runs with no command, and 'movenode local'", () => {
    expect(ok([])).toEqual(ok(["local"]))
    expect(ok(["--fresh"]).config.fresh).toBe(true)
  })

  it("gives run-localnet's defaults with a named data directory", () => {
    const { config, quiet } = ok([])
    expect(quiet).toBe(false)
    expect(config.dataDir).toBe(".movenode/local-chain")
    expect(config.api).toEqual({ host: "127.0.0.1", port: 8080 })
    expect(config.faucet).toEqual({ host: "127.0.0.1", port: 8081 })
    expect(config.readiness).toEqual({ host: "127.0.0.1", port: 8070 })
    expect(config.graphql).toEqual({ host: "127.0.0.1", port: 8090 })
    expect(config.chainId).toBe(4)
    expect(config.mining._tag).toBe("Instant")
    // Blocks are flushed to the disk unless asked otherwise.
    expect(config.fsync).toBeUndefined()
  })

  it("maps the fork flags onto the configuration, and refuses them when they do not parse", () => {
    expect(ok([]).config.fork).toBeUndefined()
    const { config } = ok([
      "--fork-url",
      "https://api.mainnet.aptoslabs.com/v1",
      "--fork-version=123",
      "--fork-header",
      "Authorization: Bearer abc:def",
      "--fork-cache",
      "/tmp/cache",
      "--fork-chain-id",
      "77"
    ])
    expect(config.fork).toEqual({
      url: "https://api.mainnet.aptoslabs.com/v1",
      version: 123n,
      headers: { Authorization: "Bearer abc:def" },
      cacheDir: "/tmp/cache",
      chainId: 77
    })
    expect(refused(["--fork-url", "http://x", "--fork-chain-id", "0"])).toBe(true)
    expect(refused(["--fork-url", "http://x", "--fork-chain-id", "256"])).toBe(true)
    expect(refused(["--fork-url", "ftp://x"])).toBe(true)
    expect(refused(["--fork-url", "not a url"])).toBe(true)
    expect(refused(["--fork-url", "http://x", "--fork-version", "-1"])).toBe(true)
    expect(refused(["--fork-url", "http://x", "--fork-header", "no colon"])).toBe(true)
    expect(refused(["--fork-version", "5"])).toBe(true)
    expect(refused(["--fork-cache", "/tmp/c"])).toBe(true)
  })

  it("maps flags onto the configuration", () => {
    const { config, quiet } = ok([
      "--data-dir=/tmp/x",
      "--fresh",
      "--block-time",
      "500",
      "--listen",
      "0.0.0.0:9000",
      "--faucet-listen=off",
      "--accounts",
      "3",
      "--epoch-secs",
      "7200",
      "--prune-window",
      "1000",
      "--no-fsync",
      "--quiet"
    ])
    expect(quiet).toBe(true)
    expect(config).toMatchObject({
      dataDir: "/tmp/x",
      fresh: true,
      mining: MiningMode.interval(500),
      api: { host: "0.0.0.0", port: 9000 },
      faucet: undefined,
      accounts: 3,
      epochIntervalSecs: 7200,
      pruneWindow: 1000n,
      fsync: false
    })
  })

  it("puts the API's and readiness's sockets in a front process unless --no-front (or API workers serve)", () => {
    expect(ok([]).config.front).toBe(true)
    expect(ok(["--front"]).config.front).toBe(true)
    expect(ok(["--no-front"]).config.front).toBe(false)
    expect(ok(["--api-workers", "2"]).config.front).toBe(false)
  })

  it("refuses what it does not understand with one line", () => {
    for (const bad of [
      ["--nope"],
      ["--block-time"],
      ["--block-time", "0"],
      ["--listen", "off"],
      ["--accounts", "x"],
      ["--data-dir", "a", "--data-dir", "b"],
      ["local", "extra"]
    ])
      expect(refused(bad)).toBe(true)
  })
})

describe("the local chain's layer", () => {
  it("serves the checkout's commit as the ledger info's git_hash, as `movenode run` does", async () => {
    const info = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const ctx = yield* Layer.build(localLayer({ config: { ...testLocalChainConfig, accounts: 0 }, quiet: true }))
          const chain = Context.get(ctx, LocalChain)
          return yield* Effect.promise(
            () => fetch(chain.apiUrl).then((r) => r.json()) as Promise<{ chain_id: number; git_hash?: string }>
          )
        })
      )
    )
    expect(info.chain_id).toBe(4)
    expect(info.git_hash).toBe(readGitHash(fileURLToPath(new URL("..", import.meta.url))))
    expect(info.git_hash).toMatch(/^[0-9a-f]{40}$/)
  })
})
