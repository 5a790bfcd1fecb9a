/**
 * The local chain: a mempool, a block producer and the notifications around them, over the
 * `Ledger` and an injected VM (`ChainVm`). Effect services with ids `movenode/chain/<Name>`.
 *
 * - `mempool/TxPool`: the pure pool (ready runs per sender, parked gaps, orderless nonces, by-hash
 *   index, limits, expiry); `mempool/MempoolConfig` its limits; `mempool/poolEntryOf` what it keeps
 *   (the bytes, not the decoded transaction); `mempool/pooledTransaction` the transaction back from them.
 * - `Mempool`: admission (sequence number, VM validation, pool insert) and maintenance. Where the
 *   validation runs goes by the rate (`mempool/SubmissionRate`): below
 *   `MempoolConfig.offThreadFromPerSecond` at once on the event loop, above it on libuv's pool and
 *   the admission worker (`mempool/AdmissionThread`, `admissionWorker`).
 * - `ChainVm`: what the chain needs of the VM (validate, block prologue, user transaction, block
 *   epilogue) as one small interface; `ChainError`: why a submission is refused.
 * - `executeBlock`: one block through the VM on an overlay of the latest state: the block
 *   metadata, user transactions, the block end the execution config asks for, epoch endings.
 * - `BlockProducer`: serialised block production (`produce`) and the mining loop (`MiningMode`),
 *   which executes the next block while the last one's commit is under way (`produceNext`);
 *   `ChainEvents`: committed blocks with their committed / discarded / dropped transactions.
 * - `controls/`: the test controls (snapshot/revert, time, impersonation, state edits, dump/load).
 * - `Faucet`: funding as an ordinary mempool client (aptos_coin::mint signed by the root key);
 *   `ed25519Signer`: the keys the chain holds, signing through node:crypto.
 * - `onChainConfig`, `accountSequenceNumber`: the few on-chain values the chain reads.
 * - `TurnBudget`: the CPU per event-loop turn that admissions and block execution may take, so
 *   sockets are read and connections accepted between slices under load (issue 22).
 */
export * from "./accountSequenceNumber.js"
export * from "./BlockProducer.js"
export * from "./ChainError.js"
export * from "./ChainEvents.js"
export * from "./ChainVm.js"
export * from "./ChainVmLive.js"
export * from "./ed25519Signer.js"
export * from "./executeBlock.js"
export * from "./buildLocalGenesis.js"
export * from "./Faucet.js"
export * from "./LocalChainConfig.js"
export * from "./Mempool.js"
export * from "./TurnBudget.js"
export * from "./mempool/MempoolConfig.js"
export * from "./mempool/poolEntryOf.js"
export * from "./mempool/pooledTransaction.js"
export * from "./mempool/TxPool.js"
export * from "./MiningMode.js"
export * from "./controls/index.js"
export * from "./onChainConfig.js"
