import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import { Bcs, equalBytes, toHex } from "../bcs/index.js"
import { addressFromNumber } from "../domain/AccountAddress.js"
import { decodeGenesisTransaction } from "../domain/Genesis.js"
import { transactionHashOfBytes } from "../domain/hash.js"
import { stateKeyCodec } from "../domain/StateKeyCodec.js"
import type { Transaction } from "../domain/Transaction.js"
import { GenesisInvalid, GenesisMismatch } from "./GenesisError.js"
import type { BlockInfo } from "./Ledger.js"
import type { LedgerError } from "./LedgerError.js"
import type { LedgerHandle } from "./makeLedgerService.js"

/** BCS(StateKey) of the `0x1::chain_id::ChainId` resource, where genesis records the chain id. */
export const chainIdStateKey: Uint8Array = Bcs.encode(stateKeyCodec, {
  _tag: "AccessPath",
  address: addressFromNumber(1),
  path: {
    _tag: "Resource",
    struct: {
      address: addressFromNumber(1),
      module: "chain_id",
      name: "ChainId",
      typeArgs: []
    }
  }
})

type GenesisTransaction = Extract<Transaction, { _tag: "GenesisTransaction" }>

/** The chain id genesis writes: the u8 inside `0x1::chain_id::ChainId`. */
export const chainIdOfGenesis = (genesis: GenesisTransaction): number | undefined => {
  if (genesis.payload._tag !== "Direct") return undefined
  for (const entry of genesis.payload.changeSet.writeSet.entries)
    if (equalBytes(entry.keyBytes, chainIdStateKey)) {
      const op = entry.op
      return "data" in op && op.data.length === 1 ? op.data[0] : undefined
    }
  return undefined
}

export type GenesisImport =
  | {
      readonly _tag: "Imported"
      readonly block: BlockInfo
      readonly chainId: number
    }
  | { readonly _tag: "AlreadyPresent" }

/**
 * Commits a genesis blob as version 0 / block 0 (epoch 0, timestamp 0) with its write set and
 * events. A store that already holds this genesis is left as it is (a restart); one that holds
 * another genesis is a `GenesisMismatch`.
 */
export const importGenesis = (
  ledger: LedgerHandle,
  genesisBytes: Uint8Array
): Effect.Effect<GenesisImport, GenesisInvalid | GenesisMismatch | LedgerError> =>
  Effect.gen(function* () {
    const head = ledger.head()
    if (head !== undefined) {
      // The blob is BCS(Transaction): its hash is known without decoding it (a restart stays cheap).
      const hash = transactionHashOfBytes(genesisBytes)
      if (equalBytes(head.genesisHash, hash)) return { _tag: "AlreadyPresent" } as const
      return yield* new GenesisMismatch({
        stored: toHex(head.genesisHash),
        given: toHex(hash)
      })
    }
    const decoded = decodeGenesisTransaction(genesisBytes)
    if (Result.isFailure(decoded)) return yield* new GenesisInvalid({ message: decoded.failure.message })
    const genesis = decoded.success
    if (genesis.payload._tag !== "Direct")
      return yield* new GenesisInvalid({
        message: "a genesis with a script payload cannot be imported without a VM"
      })
    const chainId = chainIdOfGenesis(genesis)
    if (chainId === undefined)
      return yield* new GenesisInvalid({
        message: "genesis does not write 0x1::chain_id::ChainId"
      })
    const { writeSet, events } = genesis.payload.changeSet
    const block = yield* ledger.commitGenesis(
      {
        epoch: 0n,
        timestampUsec: 0n,
        transactions: [
          {
            transaction: genesis,
            writeSet,
            events,
            outcome: {
              gasUsed: 0n,
              status: { _tag: "Success" },
              vmStatus: "Executed successfully"
            }
          }
        ]
      },
      chainId
    )
    return { _tag: "Imported", block, chainId } as const
  })
