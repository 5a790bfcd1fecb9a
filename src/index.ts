/**
 * movenode: an Aptos-compatible node REST API as a library.
 *
 * A node in a few lines (the in-memory ledger on a genesis blob, served on a free port):
 *
 *   const node = MovenodeServer.layer({ listen: { host: "127.0.0.1", port: 0 } }).pipe(
 *     Layer.provide(Node.layer),
 *     Layer.provide(LedgerMemory.layer({ genesis: genesisBytes }))
 *   )
 *
 * and a typed client for it: `MovenodeClient.layer("http://127.0.0.1:PORT")`.
 *
 * The layers, top to bottom: `bcs` (codec) → `domain` (types, parsers, hashes) → `move` (bytecode,
 * ABIs, value layouts, JSON ⇄ BCS, the VM; under `Move`) and `ledger` (the `Ledger` service and its
 * layers) → `execution` (the pure transaction executor and genesis builder, used by `chain`; not
 * re-exported) → `chain` (mempool, block producer, faucet; `LocalChain` composes a local chain) →
 * `node` (the `Node` service answering the API's questions) → `http` (server, client, OpenAPI).
 */
export * from "./bcs/index.js"
export * from "./chain/index.js"
export * from "./domain/index.js"
export * from "./http/index.js"
export * from "./ledger/index.js"
export * as Move from "./move/index.js"
// Read replicas (`movenode follow`): under `Follow`, as its names (SourceInvalid, …) are its own.
export * as Follow from "./follow/index.js"
export * from "./node/index.js"
export { devnetGenesisPath, readDevnetGenesis } from "./devnetGenesis.js"
export { describeLocalChain, type LocalAccount, LocalChain, type LocalChainInfo, localKeys } from "./LocalChain.js"
export { tuneV8ForServing } from "./tuneV8.js"
// Test helpers over the local chain's controls (docs/controls.md).
export * from "./testing/index.js"
