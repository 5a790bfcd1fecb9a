import { ControlsClient, type U64Input } from "../http/controls/ControlsClient.js"

/**
 * The helpers a test calls, over the controls' HTTP client: the same whether the chain runs in
 * this process (`startLocalChain`) or elsewhere (`connect`).
 */
export class TestChain {
  readonly controls: ControlsClient
  private fixtures = new Map<() => Promise<unknown>, { id: string; value: unknown }>()

  /** `apiUrl`: the node's API (`http://127.0.0.1:8080/v1`). */
  constructor(
    readonly apiUrl: string,
    readonly faucetUrl: string | undefined
  ) {
    this.controls = new ControlsClient(apiUrl)
  }

  snapshot(): Promise<string> {
    return this.controls.snapshot()
  }

  /**
   * Back to `id`. Snapshot ids are used once (anvil): to return to the same state again, take a
   * new snapshot right after (what `loadFixture` does).
   */
  async revertTo(id: string): Promise<void> {
    await this.controls.revert(id)
  }

  /**
   * Hardhat's `loadFixture`: the first call runs `fixture` and snapshots the chain; every later call
   * reverts to that snapshot (taking a fresh one for the next time) and returns the first result.
   */
  async loadFixture<A>(fixture: () => Promise<A>): Promise<A> {
    const held = this.fixtures.get(fixture)
    if (held === undefined) {
      const value = await fixture()
      this.fixtures.set(fixture, { id: await this.snapshot(), value })
      return value
    }
    await this.revertTo(held.id)
    held.id = await this.snapshot()
    return held.value as A
  }

  async mine(blocks = 1, options: { readonly intervalSecs?: U64Input } = {}): Promise<void> {
    await this.controls.mine(blocks, options)
  }

  /** Moves the chain's clock `secs` ahead and makes a block there (so views see the new time). */
  async increaseTime(secs: U64Input): Promise<void> {
    await this.controls.increaseTime(secs, { mine: true })
  }

  async advanceEpoch(): Promise<void> {
    await this.controls.advanceEpoch()
  }

  /**
   * Hardhat's `evm_setAutomine`: false stops making blocks on their own (transactions wait in the
   * pool until `mine`), true goes back to instant mining (with idle blocks).
   */
  async setAutomine(enabled: boolean): Promise<void> {
    await this.controls.setMining(enabled ? { mode: "instant" } : { mode: "manual" })
  }

  /** Hardhat's `evm_setIntervalMining`: a block every `ms` (0 = manual mining). */
  async setIntervalMining(ms: number): Promise<void> {
    await this.controls.setMining(ms === 0 ? { mode: "manual" } : { mode: "interval", intervalMs: ms })
  }

  /** Takes a pending transaction out of the pool (anvil's `dropTransaction`). */
  async dropTransaction(hash: string): Promise<void> {
    await this.controls.dropTransaction(hash)
  }

  /** The chain's clock in seconds: what the next block would get. */
  async now(): Promise<number> {
    return Number(BigInt((await this.controls.time()).next_block_timestamp_usecs) / 1_000_000n)
  }

  /**
   * An expiry for a transaction built now, `secs` after the chain's clock (the SDK's default counts
   * from the wall clock, which time travel leaves behind): pass it as `options.expireTimestamp`.
   */
  async expiry(secs = 60): Promise<number> {
    return (await this.now()) + secs
  }

  async reset(): Promise<void> {
    this.fixtures.clear()
    await this.controls.reset()
  }
}

/** The helpers against a chain that already runs (`npm start`): `url` is its API URL. */
export const connect = (apiUrl: string, faucetUrl?: string): TestChain => new TestChain(apiUrl, faucetUrl)
