/**
 * Fork mode (`movenode --fork-url URL`, `LocalChain`'s `fork`; docs/fork.md): a local chain whose
 * state comes lazily from another chain at a pinned version V. The data path, source to ledger:
 *
 * - `ForkSourceClient`: the source over HTTP (`GET /v1`, `POST /v1/experimental/state_values/raw`,
 *   bulk module listings, history endpoints), bounded and retried on 429/5xx.
 * - `RemoteStateCache`: what the source answered per state key (value + metadata, or absent), in
 *   memory and persisted per (source chain id, V); never a local write.
 * - `ForkStateSource`: the cache in front of the client; synchronous reads, misses fetched one
 *   request per key (single flight).
 * - `StateMisses`: how a synchronous reader (the VM) gets what it missed: the miss is logged in the
 *   running unit of work, which runs again once the keys are fetched (`retryOnMiss`).
 * - `forkBackend`: the ledger store of a fork: local writes (deletions are tombstones) over the
 *   source's state at V; blocks continue at V+1.
 * - `ForkHistory`: transactions and blocks at or below V, from the source (cached too).
 * - `ForkIdentity`: what a fork is of (kept in the data directory) and the head its first block continues.
 * - `ForkLedgerService`: the ledger service of a fork (history and state below V from the source,
 *   no commit from a run that missed); `prefetchedConfigs`, `commitHistoryAhead`: what is fetched
 *   ahead of need; `accountKeys`: an account's keys at the source, for listings; `forkRewind`:
 *   going back to the fork point (the controls' reset).
 * - `ForkLedger`: opens all of it (pin, cache, prefetch of configs and 0x1/0x3/0x4 modules).
 * - `guardServices`: the node, block producer and faucet services under `retryOnMiss`.
 */
export * from "./ForkConfig.js"
export * from "./forkBackend.js"
export * from "./ForkHistory.js"
export * from "./ForkIdentity.js"
export * from "./ForkLedger.js"
export * from "./ForkLedgerService.js"
export * from "./forkRewind.js"
export * from "./ForkSourceClient.js"
export * from "./ForkStateSource.js"
export * from "./guardServices.js"
export * from "./RemoteStateCache.js"
export * from "./StateMisses.js"
