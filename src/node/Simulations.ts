/**
 * `POST /v1/transactions/simulate` (the reference's `TransactionsApi::simulate_transaction` and
 * `simulate`, api `transactions.rs`): a BCS `SignedTransaction`, or a JSON
 * `SubmitTransactionRequest` converted as submissions convert it, whose signature must NOT verify
 * (400 "Simulated transactions must not have a valid signature": a valid one would let anyone run
 * someone else's signed transaction), optionally with the gas price and max gas replaced by the
 * node's estimates, executed by the real executor in simulation mode on the latest state and
 * answered as the committed transaction it would be: one `user_transaction` with zero state and
 * event hashes (its own transaction hash), the latest version, the output's changes and events, and
 * the gas used (also in the `GAS-USED` header). A discarded transaction is shown with
 * `success: false` and its status as `vm_status`, as the reference shows it.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import { BcsError, BcsReader } from "../bcs/index.js"
import { type ApiError, ApiErrors } from "../domain/ApiError.js"
import type { ExecutionStatus } from "../domain/ExecutionStatus.js"
import { transactionHash } from "../domain/hash.js"
import { isValidIdentifier } from "../domain/Identifier.js"
import type { LedgerInfo } from "../domain/LedgerInfo.js"
import { readSignedTransaction } from "../domain/PayloadCodec.js"
import type { EntryFunction, RawTransaction, SignedTransaction, Transaction } from "../domain/Transaction.js"
import { executeTransaction } from "../execution/executeTransaction.js"
import { explainExecutionStatus, simulationMessageSuffix } from "../execution/explainVmStatus.js"
import { StatusCodes } from "../move/vm/StatusCode.js"
import { transactionGasParams } from "../execution/TransactionGasParams.js"
import type { TransactionOutput } from "../execution/TransactionOutput.js"
import { verifySignature } from "../execution/verifySignature.js"
import { type CommittedTransaction, Ledger, type StateReader } from "../ledger/Ledger.js"
import type { ModuleSource } from "../move/layout/ModuleSource.js"
import { readGasSchedule } from "../move/vm/GasSchedule.js"
import { MoveVm } from "../move/vm/MoveVm.js"
import { type StateView, stateViewFromReader } from "../move/vm/StateView.js"
import { GasEstimator } from "./GasEstimator.js"
import { stateAtLedgerVersion } from "./LedgerVersion.js"
import type { WithLedger } from "./WithLedger.js"
import { transactionBcs, transactionJson } from "./render/index.js"
import { Renderer } from "./Renderer.js"
import { noTableTypes, type TableTypes } from "./tableInfo/TableInfoIndex.js"
import { signedTransactionFromJson } from "./submit/signedTransactionFromJson.js"

export interface SimulateOptions {
  /** Max gas = what the sender's balance buys at the price, within the schedule's bounds. */
  readonly estimateMaxGasAmount: boolean
  /** Price = the node's market estimate (`/estimate_gas_price`'s `gas_estimate`). */
  readonly estimateGasUnitPrice: boolean
  /** Price = the prioritized estimate (wins over `estimateGasUnitPrice`). */
  readonly estimatePrioritizedGasUnitPrice: boolean
}

export interface SimulationAnswer {
  /** The JSON body: an array holding the one simulated `user_transaction`. */
  readonly json: string
  /** The BCS body: the reference's `TransactionOnChainData` of the simulated transaction. */
  readonly bcs: Uint8Array
  readonly gasUsed: bigint
}

export interface SimulationsService {
  readonly simulate: (
    body: Uint8Array,
    options: SimulateOptions
  ) => Effect.Effect<WithLedger<SimulationAnswer>, ApiError>
  /**
   * The same with a JSON `SubmitTransactionRequest` (already parsed JSON), converted as
   * `POST /v1/transactions` converts it (`signedTransactionFromJson`: the latest state's ABIs).
   */
  readonly simulateJson: (
    body: unknown,
    options: SimulateOptions
  ) => Effect.Effect<WithLedger<SimulationAnswer>, ApiError>
}

export class Simulations extends Context.Service<Simulations, SimulationsService>()("movenode/node/Simulations") {}

/** The reference decodes submitted transactions with this BCS depth limit. */
const MAX_SIGNED_TRANSACTION_DEPTH = 16
const ZERO_HASH = new Uint8Array(32)

/** The body as a `SignedTransaction`, all of it, or the reference's 400. */
export const decodeSignedTransaction = (
  body: Uint8Array,
  ledger: LedgerInfo
): Result.Result<SignedTransaction, ApiError> => {
  try {
    const r = new BcsReader(body, { maxLength: body.length, maxDepth: MAX_SIGNED_TRANSACTION_DEPTH })
    const txn = readSignedTransaction(r)
    r.expectEnd()
    return Result.succeed(txn)
  } catch (e) {
    const why = e instanceof BcsError ? e.message : String(e)
    return Result.fail(
      ApiErrors.badRequest(`Failed to deserialize input into SignedTransaction: ${why.slice(0, 500)}`, ledger)
    )
  }
}

const checkEntryFunction = (f: EntryFunction): string | undefined => {
  if (!isValidIdentifier(f.module.name)) return "Transaction entry function module invalid"
  if (!isValidIdentifier(f.function)) return "Transaction entry function name invalid"
  return undefined
}

/** `validate_signed_transaction_payload`: what a submitted payload must look like before it runs. */
export const payloadFormatError = (txn: SignedTransaction): string | undefined => {
  const p = txn.rawTransaction.payload
  switch (p._tag) {
    case "EntryFunction":
      return checkEntryFunction(p.entryFunction)
    case "Script":
      return p.script.code.length === 0 ? "Script payload bytecode must not be empty" : undefined
    case "Multisig":
      return p.entryFunction === undefined ? undefined : checkEntryFunction(p.entryFunction)
    case "PayloadV1": {
      const e = p.executable
      const multisig = p.extraConfig.multisigAddress !== undefined
      if (e._tag === "Script") {
        if (e.script.code.length === 0) return "Script payload bytecode must not be empty"
        if (multisig) return "Script transaction payload must not be a multisig transaction"
        return undefined
      }
      if (e._tag === "EntryFunction") return checkEntryFunction(e.entryFunction)
      return multisig ? undefined : "Empty transaction payload must be a multisig transaction"
    }
  }
}

/** `0x1::coin::balance<AptosCoin>(sender)` (coin store plus the paired primary store). */
const balanceOf = (vm: MoveVm, view: StateView, txn: SignedTransaction): bigint | string => {
  const one = new Uint8Array(32)
  one[31] = 1
  const out = vm.call(
    view,
    {
      module: { address: one, name: "coin" },
      function: "balance",
      tyArgs: [{ _tag: "struct", struct: { address: one, module: "aptos_coin", name: "AptosCoin", typeArgs: [] } }],
      args: [txn.rawTransaction.sender]
    },
    { maxGas: 2_000_000n }
  )
  if (out._tag !== "Success") return out._tag === "Abort" ? `Move abort ${out.code}` : out.error.message
  return new BcsReader(out.values[0]!).u64()
}

/** `override_gas_parameters`: the same transaction with another max gas and/or price (its signature unchanged). */
const withGas = (txn: SignedTransaction, maxGas: bigint | undefined, price: bigint | undefined): SignedTransaction => {
  const raw: RawTransaction = {
    ...txn.rawTransaction,
    maxGasAmount: maxGas ?? txn.rawTransaction.maxGasAmount,
    gasUnitPrice: price ?? txn.rawTransaction.gasUnitPrice
  }
  return { rawTransaction: raw, authenticator: txn.authenticator }
}

/**
 * The status simulation shows (`conmbine_vm_status_for_simulation`): a kept transaction's own, a
 * discarded one's status as a miscellaneous error.
 */
const simulatedStatus = (out: TransactionOutput): ExecutionStatus =>
  out.status._tag === "Keep"
    ? out.status.status
    : { _tag: "MiscellaneousError", statusCode: BigInt(StatusCodes[out.status.status]) }

/** The simulated transaction shaped as a committed one: zero hashes, the latest version and time. */
export const simulatedTransaction = (
  ledger: LedgerInfo,
  txn: SignedTransaction,
  out: TransactionOutput,
  functionName: (module: { address: Uint8Array; name: string }, index: number) => string | undefined
): CommittedTransaction => {
  const transaction: Transaction = { _tag: "UserTransaction", signed: txn }
  const status = simulatedStatus(out)
  const hash = transactionHash(transaction)
  return {
    version: ledger.ledgerVersion,
    hash,
    blockHeight: ledger.blockHeight,
    transaction,
    writeSet: out.writeSet,
    events: out.events,
    info: {
      transactionHash: hash,
      stateChangeHash: ZERO_HASH,
      eventRootHash: ZERO_HASH,
      stateCheckpointHash: undefined,
      gasUsed: out.gasUsed,
      status,
      auxiliaryInfoHash: undefined
    },
    accumulatorRootHash: ZERO_HASH,
    timestampUsec: ledger.ledgerTimestampUsec,
    outcome: {
      gasUsed: out.gasUsed,
      status,
      vmStatus: explainExecutionStatus(status, functionName) + simulationMessageSuffix(out.vmStatus)
    }
  }
}

/**
 * The simulation over one ledger: one `MoveVm` (its module cache) reused across requests. Pure
 * but for the ledger reads; the transaction runs synchronously on the calling thread.
 */
export const makeSimulations = (
  ledgerService: Ledger["Service"],
  estimator: GasEstimator["Service"],
  /** The tables' types known through a version (the node's table info); none: table items show `data: null`. */
  tableTypesThrough: (version: bigint) => Effect.Effect<TableTypes> = () => Effect.succeed(noTableTypes)
): SimulationsService => {
  const vm = new MoveVm()
  const modulesAt =
    (view: StateView): ModuleSource =>
    (address, name) => {
      try {
        return vm.loader.withView(view, () => vm.loader.tryLoad(address, name)?.cm)
      } catch {
        return undefined
      }
    }

  const run = (
    ledger: LedgerInfo,
    state: StateReader,
    txn: SignedTransaction,
    options: SimulateOptions,
    price: bigint | undefined,
    tables: TableTypes
  ): Result.Result<SimulationAnswer, ApiError> => {
    const view = stateViewFromReader(state, ledger.ledgerVersion)
    let maxGas: bigint | undefined
    if (options.estimateMaxGasAmount) {
      let params: ReturnType<typeof transactionGasParams>
      try {
        params = transactionGasParams(readGasSchedule(view))
      } catch (e) {
        return Result.fail(ApiErrors.internal(`Failed to read the gas schedule: ${String(e)}`, ledger))
      }
      if (params._tag === "Missing")
        return Result.fail(ApiErrors.internal(`Gas parameter ${params.entry} is missing`, ledger))
      const p = params.params
      const balance = balanceOf(vm, view, txn)
      if (typeof balance === "string") return Result.fail(ApiErrors.badRequest(balance, ledger))
      const unitPrice = price ?? txn.rawTransaction.gasUnitPrice
      const affordable = unitPrice === 0n ? balance : balance / unitPrice
      const minUnits = p.minTransactionGasUnits / p.gasUnitScalingFactor
      const units = affordable > minUnits ? affordable : minUnits
      maxGas = units < p.maximumNumberOfGasUnits ? units : p.maximumNumberOfGasUnits
    }
    const simulated = maxGas === undefined && price === undefined ? txn : withGas(txn, maxGas, price)
    const out = executeTransaction(vm, view, simulated, { simulation: true })
    const modules = modulesAt(view)
    const functionName = (module: { address: Uint8Array; name: string }, index: number) => {
      const cm = modules(module.address, module.name)
      const h = cm?.functionHandles[index]
      return h === undefined ? undefined : cm!.identifiers[h.name]
    }
    const t = simulatedTransaction(ledger, simulated, out, functionName)
    // Tables known before the transaction are decoded, as the reference's simulation does.
    const json = transactionJson(modules, t, tables)
    if (Result.isFailure(json))
      return Result.fail(
        ApiErrors.internal(`Failed to render the simulated transaction: ${json.failure.message}`, ledger)
      )
    return Result.succeed({ json: JSON.stringify([json.success]), bcs: transactionBcs(t), gasUsed: out.gasUsed })
  }

  /** The checks and the run shared by both body forms, from the decoded transaction on. */
  const simulateSigned = (
    ledger: LedgerInfo,
    state: StateReader,
    txn: SignedTransaction,
    options: SimulateOptions
  ): Effect.Effect<WithLedger<SimulationAnswer>, ApiError> =>
    Effect.gen(function* () {
      const format = payloadFormatError(txn)
      if (format !== undefined) return yield* Effect.fail(ApiErrors.badRequest(format, ledger))
      if (verifySignature(txn)._tag === "Valid")
        return yield* Effect.fail(
          ApiErrors.badRequest("Simulated transactions must not have a valid signature", ledger)
        )
      let price: bigint | undefined
      if (options.estimatePrioritizedGasUnitPrice) price = (yield* estimator.estimate(ledger)).aggressive
      else if (options.estimateGasUnitPrice) price = (yield* estimator.estimate(ledger)).market
      const tables = yield* tableTypesThrough(ledger.ledgerVersion)
      const answer = run(ledger, state, txn, options, price, tables)
      if (Result.isFailure(answer)) return yield* Effect.fail(answer.failure)
      return { ledger, value: answer.success }
    })

  return {
    simulate: (body, options) =>
      Effect.flatMap(stateAtLedgerVersion(ledgerService, undefined), ({ ledger, state }) => {
        const decoded = decodeSignedTransaction(body, ledger)
        return Result.isFailure(decoded)
          ? Effect.fail(decoded.failure)
          : simulateSigned(ledger, state, decoded.success, options)
      }),
    simulateJson: (body, options) =>
      Effect.flatMap(stateAtLedgerVersion(ledgerService, undefined), ({ ledger, state }) => {
        const modules = modulesAt(stateViewFromReader(state, ledger.ledgerVersion))
        const signed = signedTransactionFromJson(body, modules, ledger)
        return Result.isFailure(signed)
          ? Effect.fail(signed.failure)
          : simulateSigned(ledger, state, signed.success, options)
      })
  }
}

export const SimulationsLive = Layer.effect(
  Simulations,
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const estimator = yield* GasEstimator
    // The node's renderer, when composed with the reads (Node.serviceLayers), gives the tables' types.
    const renderer = yield* Effect.serviceOption(Renderer)
    return Simulations.of(
      makeSimulations(ledger, estimator, Option.isSome(renderer) ? renderer.value.tableTypesThrough : undefined)
    )
  })
)
