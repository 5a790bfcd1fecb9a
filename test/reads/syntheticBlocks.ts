/**
 * Synthetic blocks for the read endpoints' tests, committed through the ledger service on top of the
 * devnet genesis: block metadata, a user transaction of 0xcafe (0x1::aptos_account::transfer) that
 * writes its account, a table item and events, a block epilogue; and a failed one in a second block.
 */
import { Effect } from "effect"
import { BcsWriter } from "../../src/bcs/index.js"
import { addressFromNumber } from "../../src/domain/AccountAddress.js"
import type { ContractEvent } from "../../src/domain/ContractEvent.js"
import type { BlockMetadata, Transaction } from "../../src/domain/Transaction.js"
import { makeWriteSetEntry, sortWriteSet } from "../../src/domain/WriteSetCodec.js"
import type { LedgerService, TransactionToCommit } from "../../src/ledger/Ledger.js"
import { transferPayload } from "../execution/fixtures.js"

export const ONE = addressFromNumber(1)
export const CAFE = addressFromNumber(0xcafe)
export const TABLE = addressFromNumber(0x7ab1e)
export const hex = (b: Uint8Array) => `0x${Buffer.from(b).toString("hex")}`
export const u64 = (n: bigint) => new BcsWriter(8).u64(n).toBytes()

/** `0x1::account::Account` of 0xcafe with `sequenceNumber` (auth key = the address). */
const accountBytes = (sequenceNumber: bigint): Uint8Array => {
  const w = new BcsWriter(160)
  w.bytesWithLength(CAFE).u64(sequenceNumber).u64(2n)
  w.u64(1n).u64(0n).fixed(CAFE)
  w.u64(0n).u64(1n).fixed(CAFE)
  w.u8(0).u8(0)
  return w.toBytes()
}

const accountWrite = (sequenceNumber: bigint) =>
  makeWriteSetEntry(
    {
      _tag: "AccessPath",
      address: CAFE,
      path: { _tag: "Resource", struct: { address: ONE, module: "account", name: "Account", typeArgs: [] } }
    },
    { _tag: "Creation", data: accountBytes(sequenceNumber) }
  )

const tableWrite = makeWriteSetEntry(
  { _tag: "TableItem", handle: TABLE, key: u64(5n) },
  { _tag: "Creation", data: u64(77n) }
)

const registerEvent: ContractEvent = {
  _tag: "V1",
  key: { creationNumber: 0n, accountAddress: CAFE },
  sequenceNumber: 0n,
  typeTag: { _tag: "struct", struct: { address: ONE, module: "account", name: "CoinRegisterEvent", typeArgs: [] } },
  // CoinRegisterEvent { type_info: TypeInfo { account_address, module_name: vector<u8>, struct_name: vector<u8> } }
  data: new BcsWriter(64)
    .fixed(ONE)
    .bytesWithLength(Buffer.from("aptos_coin"))
    .bytesWithLength(Buffer.from("AptosCoin"))
    .toBytes()
}
const feeEvent: ContractEvent = {
  _tag: "V2",
  typeTag: { _tag: "struct", struct: { address: ONE, module: "transaction_fee", name: "FeeStatement", typeArgs: [] } },
  data: new BcsWriter(40).u64(9n).u64(5n).u64(4n).u64(0n).u64(0n).toBytes()
}

export const metadata = (round: bigint, timestampUsecs: bigint): BlockMetadata => ({
  id: new Uint8Array(32).fill(Number(round)),
  epoch: 1n,
  round,
  proposer: addressFromNumber(0x5eed),
  previousBlockVotesBitvec: new Uint8Array([]),
  failedProposerIndices: [],
  timestampUsecs
})

const ok = { gasUsed: 0n, status: { _tag: "Success" } as const, vmStatus: "Executed successfully" }
export const system = (transaction: Transaction): TransactionToCommit => ({
  transaction,
  writeSet: { entries: [] },
  events: [],
  outcome: ok
})

const user = (sequenceNumber: bigint): Transaction => ({
  _tag: "UserTransaction",
  signed: {
    rawTransaction: {
      sender: CAFE,
      sequenceNumber,
      payload: transferPayload(addressFromNumber(0xb0b), 10n),
      maxGasAmount: 1000n,
      gasUnitPrice: 100n,
      expirationTimestampSecs: 2_000_000_000n,
      chainId: 243
    },
    authenticator: { _tag: "Ed25519", publicKey: new Uint8Array(32).fill(1), signature: new Uint8Array(64).fill(2) }
  }
})

/** Commits a block at `round` (timestamp round seconds): metadata, `ts`, a block epilogue. */
export const commitRound = (ledger: LedgerService, round: bigint, ...ts: TransactionToCommit[]) =>
  Effect.runPromise(
    ledger.commitBlock({
      epoch: 1n,
      timestampUsec: 1_000_000n * round,
      transactions: [
        system({ _tag: "BlockMetadata", metadata: metadata(round, 1_000_000n * round) }),
        ...ts,
        system({
          _tag: "BlockEpilogue",
          blockId: metadata(round, 0n).id,
          blockEndInfo: {
            blockGasLimitReached: false,
            blockOutputLimitReached: false,
            blockEffectiveBlockGasUnits: 9n,
            blockApproxOutputSize: 100n
          }
        })
      ]
    })
  )

/**
 * Blocks 1 (versions 1..3: 0xcafe's transaction at version 2, which creates its account with
 * sequence number 1, the table item 5 → 77, a CoinRegisterEvent and a FeeStatement) and 2 (versions
 * 4..6: 0xcafe's failed transaction at version 5).
 */
export const commitSyntheticBlocks = async (ledger: LedgerService): Promise<void> => {
  await commitRound(ledger, 1n, {
    transaction: user(0n),
    writeSet: sortWriteSet({ entries: [accountWrite(1n), tableWrite] }),
    events: [registerEvent, feeEvent],
    outcome: { gasUsed: 9n, status: { _tag: "Success" }, vmStatus: "Executed successfully" }
  })
  await commitRound(ledger, 2n, {
    transaction: user(1n),
    writeSet: sortWriteSet({ entries: [accountWrite(2n)] }),
    events: [feeEvent],
    outcome: {
      gasUsed: 7n,
      status: {
        _tag: "MoveAbort",
        location: { _tag: "Module", module: { address: ONE, name: "coin" } },
        code: 0x10006n,
        info: undefined
      },
      vmStatus: "Move abort in 0x1::coin: 0x10006"
    }
  })
}
