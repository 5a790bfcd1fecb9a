/**
 * The pure domain core: the types of the Aptos ledger and API, their BCS codecs, text forms,
 * hashing and small pure algorithms. No I/O, no runtime; plain data and functions.
 *
 * - Shapes: AccountAddress, TypeTag/StructTag/ModuleId, StateKey, WriteSet, ContractEvent,
 *   Transaction (payloads, block transactions), TransactionAuthenticator, LedgerInfo, ApiError.
 * - BCS (`*Codec.ts`): `read*`/`write*` functions on BcsReader/BcsWriter for hot paths, plus
 *   `*Codec` values for `Bcs.encode`/`Bcs.decode` (Result, never throws). Decoders treat input as
 *   hostile: lengths bounded by the bytes left, type-tag nesting capped at the reference's 8.
 * - Genesis: `decodeGenesisTransaction`.
 * - Hashing and signing: `hashPrefix`, `transactionHash`, `signingMessage`,
 *   `multiAgentSigningMessage`, `feePayerSigningMessage`; derived object addresses. SHA3-256 itself
 *   (`hash.ts`) runs in WebAssembly up to 1 KB (`sha3Wasm.ts`), node:crypto beyond, JS where
 *   neither is present (`sha3Js.ts`). Strict Ed25519 verification (ed25519-dalek's `verify_strict`,
 *   internal): our checks with a native curve equation, libsodium's or OpenSSL's (`ed25519Fast.ts`,
 *   `ed25519Sodium.ts`), and the pure-JS definition it answers as (`ed25519Strict.ts`); ECDSA's equation by
 *   OpenSSL (`ecdsaNative.ts`); the node:crypto keys both load, cached (`publicKeyCache.ts`); scalars
 *   read from bytes (`scalarBytes.ts`).
 * - Execution results: `ExecutionStatus` (how a kept transaction ended), `TransactionInfo` (what
 *   the ledger records and hashes), the Merkle accumulator (`MerkleAccumulator.ts`) and the output
 *   hashes (`writeSetHash`, `eventRootHash`, in `outputHashes.ts`).
 * - Text: `Identifier`, `quoteString`/`boundedPrefix` (client input quoted in errors, bounded), the MoveType parser/printer, `parseTypeTag`/`typeTagToString`,
 *   `structTagEquals`; Schemas for the API's integers, addresses and hex bytes (`integers.ts`).
 * - Gas-estimate arithmetic (`gasEstimate.ts`), `replayProtectorOf`.
 * - Map keys of byte strings (`mapKeys.ts`: `bytesKey`, `addressKey`), for the VM's sessions, a
 *   block's overlays and the ledger's commit; a cached state key keeps its string (not re-hashed).
 */
export * from "./AccountAddress.js"
export * from "./ApiError.js"
export * from "./BlockCodec.js"
export * from "./boundedText.js"
export * from "./ChangeSetCodec.js"
export * from "./ContractEvent.js"
export * from "./ContractEventCodec.js"
export * from "./CryptoMaterialCodec.js"
export * from "./ExecutionStatus.js"
export * from "./ExecutionStatusCodec.js"
export * from "./gasEstimate.js"
export * from "./Genesis.js"
export * from "./hash.js"
export * from "./Identifier.js"
export * from "./integers.js"
export * from "./LedgerInfo.js"
export * from "./MerkleAccumulator.js"
export * from "./MoveType.js"
export * from "./objectAddress.js"
export * from "./outputHashes.js"
export * from "./PayloadCodec.js"
export * from "./ReplayProtector.js"
export * from "./ResourceGroupCodec.js"
export * from "./ScriptCodec.js"
export * from "./signingMessage.js"
export * from "./StateKey.js"
export * from "./StateKeyCodec.js"
export * from "./StateValueCodec.js"
export * from "./stateKeyHash.js"
export * from "./Transaction.js"
export * from "./TransactionAuthenticator.js"
export * from "./TransactionAuthenticatorCodec.js"
export * from "./TransactionCodec.js"
export * from "./TransactionInfo.js"
export * from "./TransactionInfoCodec.js"
export * from "./TypeTag.js"
export * from "./TypeTagCodec.js"
export * from "./TypeTagString.js"
export * from "./WriteSet.js"
export * from "./WriteSetCodec.js"
