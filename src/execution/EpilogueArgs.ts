/**
 * `0x1::transaction_validation::EpilogueArgs`, the argument of `versioned_epilogue` (local-chain.md
 * §8.4), written as BCS by the enum's declaration in the framework in state.
 */
import { withScratchWriter } from "../bcs/index.js"
import type { ModuleSource } from "../move/layout/ModuleSource.js"
import { encodeToBytesWith, LayoutMismatch } from "./encodeByLayout.js"
import { type FeeStatement, feeStatementFields } from "./FeeStatement.js"
import { frameworkLayout } from "./frameworkLayout.js"

export interface EpilogueArgsV1 {
  readonly feeStatement: FeeStatement
  readonly gasUnitPrice: bigint
  readonly maxGasAmount: bigint
  /** The meter's balance in external units, rounded down. */
  readonly gasUnitsRemaining: bigint
  readonly isSimulation: boolean
  readonly isOrderless: boolean
}

/** BCS of `EpilogueArgs::V1`, or why the framework in state has no such type we can fill. */
export const encodeEpilogueArgs = (source: ModuleSource, args: EpilogueArgsV1): Uint8Array | string => {
  const layout = frameworkLayout(source, "transaction_validation", "EpilogueArgs")
  if (typeof layout === "string") return layout
  try {
    // A reused writer (once per transaction): no buffer to allocate and grow each time.
    return withScratchWriter(encodeToBytesWith, {
      layout,
      path: "EpilogueArgs",
      value: {
        variant: "V1",
        fields: {
          fee_statement: feeStatementFields(args.feeStatement),
          txn_gas_price: args.gasUnitPrice,
          txn_max_gas_units: args.maxGasAmount,
          gas_units_remaining: args.gasUnitsRemaining,
          is_simulation: args.isSimulation,
          is_orderless_txn: args.isOrderless
        }
      }
    })
  } catch (e) {
    if (e instanceof LayoutMismatch) return e.message
    throw e
  }
}
