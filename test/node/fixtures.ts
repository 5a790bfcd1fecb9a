import { Effect, Layer } from "effect"
import { Bcs } from "../../src/bcs/index.js"
import { type AccountAddress, addressFromNumber } from "../../src/domain/AccountAddress.js"
import type { StateKey } from "../../src/domain/StateKey.js"
import { stateKeyCodec } from "../../src/domain/StateKeyCodec.js"
import type { BlockEndInfo, RawTransaction, Transaction } from "../../src/domain/Transaction.js"
import type { StructTag, TypeTag } from "../../src/domain/TypeTag.js"
import type { WriteOp, WriteSetEntry } from "../../src/domain/WriteSet.js"
import { LedgerMemory } from "../../src/ledger/index.js"
import { type BlockToCommit, Ledger, type TransactionToCommit } from "../../src/ledger/Ledger.js"
import type { LedgerMemoryOptions } from "../../src/ledger/LedgerMemory.js"
import { Balances } from "../../src/node/Balances.js"
import { GasEstimator } from "../../src/node/GasEstimator.js"
import { Modules } from "../../src/node/Modules.js"
import { defaultNodeConfig, type NodeConfigShape, nodeConfigLayer } from "../../src/node/NodeConfig.js"
import { Summaries } from "../../src/node/Summaries.js"
import { loadGenesisBytes } from "../support/genesis.js"

/** The devnet genesis blob the package ships. */
export const devnetGenesis: Uint8Array = loadGenesisBytes("devnet")
/** The 2022 mainnet genesis from ../shared (guard callers with `hasGenesis("mainnet")`). */
export const mainnetGenesis = (): Uint8Array => loadGenesisBytes("mainnet")

export const ONE = addressFromNumber(1)
export const ROOT = addressFromNumber(0xa550c18)

export const struct = (
  address: AccountAddress,
  module: string,
  name: string,
  typeArgs: ReadonlyArray<TypeTag> = []
): StructTag => ({
  address,
  module,
  name,
  typeArgs
})
export const APTOS_COIN = struct(ONE, "aptos_coin", "AptosCoin")

/** A user transaction with an Ed25519 authenticator (signature bytes are not checked by the ledger). */
export const userTransaction = (
  sender: AccountAddress,
  sequenceNumber: bigint,
  gasUnitPrice: bigint,
  options: { readonly nonce?: bigint } = {}
): Transaction => {
  const entryFunction = {
    module: { address: ONE, name: "aptos_account" },
    function: "transfer",
    typeArgs: [],
    args: [addressFromNumber(0xb0b), Bcs.encode(Bcs.u64, 1n)]
  }
  const rawTransaction: RawTransaction = {
    sender,
    sequenceNumber: options.nonce === undefined ? sequenceNumber : 0xffffffffffffffffn,
    payload:
      options.nonce === undefined
        ? { _tag: "EntryFunction", entryFunction }
        : {
            _tag: "PayloadV1",
            executable: { _tag: "EntryFunction", entryFunction },
            extraConfig: { multisigAddress: undefined, replayProtectionNonce: options.nonce }
          },
    maxGasAmount: 200_000n,
    gasUnitPrice,
    expirationTimestampSecs: 1_900_000_000n,
    chainId: 4
  }
  return {
    _tag: "UserTransaction",
    signed: {
      rawTransaction,
      authenticator: { _tag: "Ed25519", publicKey: new Uint8Array(32).fill(7), signature: new Uint8Array(64).fill(9) }
    }
  }
}

export const blockMetadata = (epoch: bigint, round: bigint, timestampUsecs: bigint): Transaction => ({
  _tag: "BlockMetadata",
  metadata: {
    id: new Uint8Array(32).fill(Number(round % 251n)),
    epoch,
    round,
    proposer: addressFromNumber(0x5eed),
    previousBlockVotesBitvec: new Uint8Array(0),
    failedProposerIndices: [],
    timestampUsecs
  }
})

export const blockEpilogue = (limitReached: boolean): Transaction => {
  const blockEndInfo: BlockEndInfo = {
    blockGasLimitReached: limitReached,
    blockOutputLimitReached: false,
    blockEffectiveBlockGasUnits: 1000n,
    blockApproxOutputSize: 5000n
  }
  return { _tag: "BlockEpilogue", blockId: new Uint8Array(32).fill(3), blockEndInfo }
}

export const entry = (key: StateKey, op: WriteOp): WriteSetEntry => ({
  key,
  keyBytes: Bcs.encode(stateKeyCodec, key),
  op
})

/** A write set entry putting `data` at a resource (Modification: the ledger does not care which). */
export const writeResource = (address: AccountAddress, tag: StructTag, data: Uint8Array): WriteSetEntry =>
  entry({ _tag: "AccessPath", address, path: { _tag: "Resource", struct: tag } }, { _tag: "Modification", data })

export const writeResourceGroup = (address: AccountAddress, tag: StructTag, data: Uint8Array): WriteSetEntry =>
  entry({ _tag: "AccessPath", address, path: { _tag: "ResourceGroup", struct: tag } }, { _tag: "Modification", data })

export const deleteResource = (address: AccountAddress, tag: StructTag): WriteSetEntry =>
  entry({ _tag: "AccessPath", address, path: { _tag: "Resource", struct: tag } }, { _tag: "Deletion" })

export const toCommit = (transaction: Transaction, writes: ReadonlyArray<WriteSetEntry> = []): TransactionToCommit => ({
  transaction,
  writeSet: { entries: writes },
  events: [],
  outcome: { gasUsed: 10n, status: { _tag: "Success" }, vmStatus: "Executed successfully" }
})

/** A block: block metadata, the given transactions, then (optionally) an epilogue. */
export const block = (
  epoch: bigint,
  round: bigint,
  transactions: ReadonlyArray<TransactionToCommit>,
  options: { readonly epilogueLimitReached?: boolean } = {}
): BlockToCommit => ({
  epoch,
  timestampUsec: 1_000_000n * (round + 1n),
  transactions: [
    toCommit(blockMetadata(epoch, round, 1_000_000n * (round + 1n))),
    ...transactions,
    ...(options.epilogueLimitReached === undefined ? [] : [toCommit(blockEpilogue(options.epilogueLimitReached))])
  ]
})

/** `count` user transactions from distinct senders, all at `gasUnitPrice` (the cheapest first when `cheapest` is given). */
export const userTransactions = (count: number, gasUnitPrice: bigint, cheapest?: bigint): TransactionToCommit[] =>
  Array.from({ length: count }, (_, i) =>
    toCommit(
      userTransaction(addressFromNumber(0x1000 + i), 0n, i === 0 && cheapest !== undefined ? cheapest : gasUnitPrice)
    )
  )

export const commitAll = (blocks: ReadonlyArray<BlockToCommit>) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    for (const b of blocks) yield* ledger.commitBlock(b)
  })

/**
 * The node's per-concern services over a fresh in-memory ledger; the ledger (for commits) and the
 * configuration (for services a test builds itself) stay reachable.
 */
export const servicesLayer = (
  options: LedgerMemoryOptions = { genesis: devnetGenesis },
  config: NodeConfigShape = defaultNodeConfig
) =>
  Layer.mergeAll(Balances.layer, GasEstimator.layer, Summaries.layer, Modules.layer).pipe(
    Layer.provideMerge(Layer.merge(LedgerMemory.layer(options), nodeConfigLayer(config)))
  )
