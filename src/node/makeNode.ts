import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { Ledger } from "../ledger/Ledger.js"
import { Accounts } from "./Accounts.js"
import { Balances } from "./Balances.js"
import { Blocks } from "./Blocks.js"
import { Events } from "./Events.js"
import { GasEstimator } from "./GasEstimator.js"
import { readLedgerInfo } from "./LedgerVersion.js"
import { Modules } from "./Modules.js"
import { Resources } from "./Resources.js"
import { StateValues } from "./StateValues.js"
import { Tables } from "./Tables.js"
import { Transactions } from "./Transactions.js"
import type { GasEstimate } from "../domain/gasEstimate.js"
import type { NodeService } from "./NodeService.js"
import type { WithLedger } from "./WithLedger.js"
import { Simulations } from "./Simulations.js"
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
  const reads = {
    accounts: yield* Accounts,
    resources: yield* Resources,
    transactions: yield* Transactions,
    blocks: yield* Blocks,
    events: yield* Events,
    tables: yield* Tables,
    stateValues: yield* StateValues
  }
  const simulations = yield* Simulations
  const ledgerInfo = readLedgerInfo(ledger)
  let lastGas: WithLedger<GasEstimate> | undefined
  let lastGasEffect: Effect.Effect<WithLedger<GasEstimate>> | undefined
  const service: NodeService = {
    ledgerInfo,
    balance: balances.balance,
    estimateGasPrice: Effect.flatMap(ledgerInfo, (info) =>
      Clock.clockWith((clock) => {
        // A cached estimate at an unchanged ledger info is the same answer: reuse it, allocating nothing.
        const hit = gas.peek(info, clock.currentTimeMillisUnsafe())
        if (hit === undefined) return Effect.map(gas.estimate(info), (value) => ({ ledger: info, value }))
        if (lastGas === undefined || lastGas.ledger !== info || lastGas.value !== hit) {
          lastGas = { ledger: info, value: hit }
          lastGasEffect = Effect.succeed(lastGas)
        }
        return lastGasEffect!
      })
    ),
    transactionSummaries: summaries.page,
    module: modules.module,
    view: views.view,
    encodeSubmission: encoder.encodeSubmission,
    reads,
    simulate: simulations.simulate,
    simulateJson: simulations.simulateJson,
    // A read-only node has no mempool; the local chain adds its `Submissions` (src/LocalChain.ts).
    submissions: undefined
  }
  return service
})
