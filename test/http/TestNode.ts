import { Effect } from "effect"
import { addressEquals, addressFromNumber } from "../../src/domain/AccountAddress.js"
import { ApiError, ApiErrors } from "../../src/domain/ApiError.js"
import type { LedgerInfo } from "../../src/domain/LedgerInfo.js"
import type { TransactionSummary } from "../../src/ledger/Ledger.js"
import type { NodeService } from "../../src/node/NodeService.js"
import type { ReadServices } from "../../src/node/Reads.js"

/** The read services are tested over real ledgers (test/reads); here every call answers 400. */
const notServed = new Proxy(
  {},
  {
    get: () => new Proxy({}, { get: () => () => Effect.fail(ApiErrors.badRequest("not served by the test node")) })
  }
) as ReadServices

/**
 * A test double of the `Node` service: fixed answers, the contract's ledger_version rules, and
 * named functions that fail on purpose, so every branch of the HTTP layer can be driven.
 */
export const LEDGER: LedgerInfo = {
  chainId: 4,
  epoch: 2n,
  ledgerVersion: 1000n,
  oldestLedgerVersion: 100n,
  ledgerTimestampUsec: 1_700_000_000_000_000n,
  blockHeight: 50n,
  oldestBlockHeight: 5n
}

export const U64_MAX = 18446744073709551615n
export const GUID_BYTES = new Uint8Array([0xa1, 0x1c, 0xeb, 0x0b, 7, 0, 0, 10])
export const GUID_ABI = `{"address":"0x1","name":"guid","friends":["0x1::account"],"exposed_functions":[{"name":"create","visibility":"friend","is_entry":false,"is_view":false,"generic_type_params":[],"params":["address","&mut u64"],"return":["0x1::guid::GUID"]}],"structs":[{"name":"GUID","is_native":false,"is_event":false,"is_enum":false,"abilities":["drop","store"],"generic_type_params":[],"fields":[{"name":"id","type":"0x1::guid::ID"}],"variants":[]}]}`

const ONE = addressFromNumber(1)

export const SUMMARIES: ReadonlyArray<TransactionSummary> = [
  {
    sender: ONE,
    version: 101n,
    hash: new Uint8Array(32).fill(0xab),
    replayProtector: { _tag: "SequenceNumber", sequenceNumber: 0n }
  },
  {
    sender: ONE,
    version: 205n,
    hash: new Uint8Array(32).fill(0xcd),
    replayProtector: { _tag: "Nonce", nonce: 42n }
  },
  {
    sender: ONE,
    version: 999n,
    hash: new Uint8Array(32).fill(0x01),
    replayProtector: { _tag: "SequenceNumber", sequenceNumber: 1n }
  }
]

const atVersion = (v: bigint | undefined) =>
  v === undefined
    ? Effect.succeed(LEDGER.ledgerVersion)
    : v > LEDGER.ledgerVersion
      ? Effect.fail(ApiErrors.versionNotFound(v, LEDGER))
      : v < LEDGER.oldestLedgerVersion
        ? Effect.fail(ApiErrors.versionPruned(v, LEDGER))
        : Effect.succeed(v)

export interface Calls {
  balance: Array<unknown>
  summaries: Array<unknown>
  view: Array<unknown>
  encode: Array<unknown>
  simulate?: Array<unknown>
}

export const makeTestNode = (calls: Calls = { balance: [], summaries: [], view: [], encode: [] }): NodeService => ({
  reads: notServed,
  submissions: undefined,
  ledgerInfo: Effect.succeed(LEDGER),
  balance: (address, asset, version) =>
    Effect.flatMap(atVersion(version), () => {
      calls.balance.push({ address, asset, version })
      return Effect.succeed({ ledger: LEDGER, value: addressEquals(address, ONE) ? U64_MAX : 12345n })
    }),
  estimateGasPrice: Effect.succeed({ ledger: LEDGER, value: { low: 100n, market: 100n, aggressive: 150n } }),
  transactionSummaries: (address, query) => {
    calls.summaries.push({ address, query })
    const limit = Math.min(query.limit ?? 100, 100)
    const all = SUMMARIES.filter(
      (s) =>
        addressEquals(s.sender, address) &&
        (query.startVersion === undefined || s.version >= query.startVersion) &&
        (query.endVersion === undefined || s.version <= query.endVersion)
    )
    const page = all.slice(0, limit)
    const cursor = all.length > limit ? all[limit]!.version : undefined
    return Effect.succeed({ ledger: LEDGER, value: { summaries: page, cursor } })
  },
  module: (address, name, version) =>
    Effect.flatMap(atVersion(version), (v) =>
      addressEquals(address, ONE) && name === "guid"
        ? Effect.succeed({ ledger: LEDGER, value: { bytecode: GUID_BYTES, abiJson: GUID_ABI } })
        : Effect.fail(ApiErrors.moduleNotFound("0x1", name, v, LEDGER))
    ),
  view: (request, version) =>
    Effect.flatMap(atVersion(version), () => {
      calls.view.push(request)
      const fn = request._tag === "Json" ? (request.body as { function: string }).function : "bcs"
      if (fn === "0x1::test::abort")
        return Effect.fail(
          new ApiError({
            status: 400,
            code: "invalid_input",
            message: "Move abort in 0x1::test: 0x10001",
            vmErrorCode: 4016n,
            ledger: LEDGER
          })
        )
      if (fn === "0x1::test::die") return Effect.die(new Error("boom"))
      return Effect.succeed({
        ledger: LEDGER,
        value: {
          json: ["100", 8],
          bcsValues: [new Uint8Array([100, 0, 0, 0, 0, 0, 0, 0]), new Uint8Array([8])],
          gasUsed: 7n
        }
      })
    }),
  encodeSubmission: (body) => {
    calls.encode.push(body)
    if ((body as { sender: string }).sender === "0xbad")
      return Effect.fail(
        ApiErrors.badRequest("The given transaction is invalid: Failed to parse transaction payload", LEDGER)
      )
    return Effect.succeed({ ledger: LEDGER, value: new Uint8Array([1, 2, 3]) })
  },
  simulate: (body, options) => {
    calls.simulate?.push({ body, options })
    return Effect.succeed({
      ledger: LEDGER,
      value: { json: '[{"type":"user_transaction","success":true}]', bcs: new Uint8Array([9]), gasUsed: 11n }
    })
  },
  simulateJson: (body, options) => {
    calls.simulate?.push({ body, options })
    return Effect.succeed({
      ledger: LEDGER,
      value: { json: '[{"type":"user_transaction","success":true}]', bcs: new Uint8Array([9]), gasUsed: 11n }
    })
  }
})
