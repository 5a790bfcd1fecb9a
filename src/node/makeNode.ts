import * as Effect from "effect/Effect"
import { Ledger } from "../ledger/Ledger.js"
import { Balances } from "./Balances.js"
import { GasEstimator } from "./GasEstimator.js"
import { readLedgerInfo } from "./LedgerVersion.js"
import { Modules } from "./Modules.js"
import type { NodeService } from "./Node.js"
import { Summaries } from "./Summaries.js"
import { TransactionEncoder } from "./TransactionEncoder.js"
import { Views } from "./Views.js"

/** Assembles `NodeService` from the per-concern services; each method delegates to one of them. */
export const makeNode = Effect.gen(function* () {
  const ledger = yield* Ledger
  const balances = yield* Balances
  const gas = yield* GasEstimator
  const summaries = yield* Summaries
  const modules = yield* Modules
  const views = yield* Views
  const encoder = yield* TransactionEncoder
  const ledgerInfo = readLedgerInfo(ledger)
  const service: NodeService = {
    ledgerInfo,
    balance: balances.balance,
    estimateGasPrice: Effect.flatMap(ledgerInfo, (info) =>
      Effect.map(gas.estimate(info), (value) => ({ ledger: info, value }))
    ),
    transactionSummaries: summaries.page,
    module: modules.module,
    view: views.view,
    encodeSubmission: encoder.encodeSubmission
  }
  return service
})
