/**
 * `movenode/testing`: helpers for test suites written with the TypeScript SDK (Hardhat's network
 * helpers, for Aptos), over the local chain's test controls (docs/controls.md).
 *
 *   const chain = await startLocalChain()          // in process; or connect(url) to `npm start`
 *   const aptos = new Aptos(chain.aptosConfig())
 *   const fixture = await chain.snapshot()
 *   afterEach(() => chain.revertTo(fixture))         // each test from the same state
 *   await chain.increaseTime(86_400)                 // and build expiries from the chain's clock
 *
 * - `startLocalChain(overrides)`: `LocalChain.spawn` in its own scope; `stop()` ends it.
 * - `connect(url)`: the same helpers against a running chain (`npm start`, another process).
 * - `loadFixture(fn)`: runs `fn` once, snapshots, and on every later call reverts to that state.
 */
export * from "./startLocalChain.js"
export * from "./TestChain.js"
export * from "../http/controls/ControlsClient.js"
