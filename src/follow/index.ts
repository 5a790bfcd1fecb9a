/**
 * Read replicas: a follower tails a source node's committed blocks through its REST API (BCS),
 * checks each transaction, commits each block atomically into its own ledger and serves the API
 * from it. The data path, one concept per file:
 *
 *   FeedClient ──► sourceBlock (decode, bytes kept) ──► checkTransaction ──► applySourceBlock ──► Ledger
 *   (HTTP, long poll;                                  (hashes, accumulator)   (commitBlock(s) with the source's infos)
 *    by height, 8 in flight)
 *
 * - `followSource`: the loop (resume, divergence check, long poll following, blocks by height in
 *   flight and committed together catching up, back-off);
 * - `ChecksThread` / `checksWorker`: catching up, the transactions' checks on a worker thread, one
 *   run ahead of the commits (so the hashing and the commit use both cores);
 * - `FollowerStatus`: lag reporting (GET /v1 `follow`, Prometheus, the health check's freshness);
 * - `FollowerNode` (`Follower.layer`): the replica assembled with the node and the API server
 *   (submissions forwarded to the source, wait_by_hash once applied);
 * - `followCommand`: `movenode follow URL`.
 * docs/scale-out.md describes the design, the balancer setup and the measured figures.
 */
export * from "./applySourceBlock.js"
export * from "./checkTransaction.js"
export * from "./FeedClient.js"
export * from "./FollowError.js"
export * from "./FollowerNode.js"
export * from "./FollowerStatus.js"
export * from "./followSource.js"
export * from "./sourceBlock.js"
