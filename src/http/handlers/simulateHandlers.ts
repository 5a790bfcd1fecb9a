import * as Effect from "effect/Effect"
import { type ApiError, ApiErrors } from "../../domain/ApiError.js"
import { parseJsonBody } from "../Body.js"
import { SIGNED_TRANSACTION_BCS } from "../groups/SimulationGroup.js"
import { bcsReply, JSON_TYPE, jsonReply } from "../Reply.js"
import type { HandlerEnv, RouteSpec } from "./HandlerTypes.js"

/** A boolean query flag as the reference parses it: absent = false, else `true` or `false`. */
const flag = (query: ReadonlyMap<string, string>, name: string): boolean | ApiError => {
  const v = query.get(name)
  if (v === undefined || v === "false") return false
  if (v === "true") return true
  return ApiErrors.webFramework(
    400,
    `failed to parse query \`${name}\`: failed to parse "bool": provided string was not \`true\` or \`false\``
  )
}

/**
 * `POST /v1/transactions/simulate`: a BCS signed transaction or a JSON SubmitTransactionRequest in;
 * JSON (an array of one user_transaction) or BCS out, and the gas used header.
 */
export const simulateHandlers = (env: HandlerEnv) => {
  const { node, headers } = env
  const simulate: RouteSpec = {
    bodyTypes: [SIGNED_TRANSACTION_BCS, JSON_TYPE],
    handler: (input) => {
      const estimateMaxGasAmount = flag(input.query, "estimate_max_gas_amount")
      const estimateGasUnitPrice = flag(input.query, "estimate_gas_unit_price")
      const estimatePrioritizedGasUnitPrice = flag(input.query, "estimate_prioritized_gas_unit_price")
      for (const f of [estimateMaxGasAmount, estimateGasUnitPrice, estimatePrioritizedGasUnitPrice])
        if (typeof f !== "boolean") return Effect.fail(f)
      const options = {
        estimateMaxGasAmount: estimateMaxGasAmount as boolean,
        estimateGasUnitPrice: estimateGasUnitPrice as boolean,
        estimatePrioritizedGasUnitPrice: estimatePrioritizedGasUnitPrice as boolean
      }
      const body = input.body ?? new Uint8Array()
      let simulated: ReturnType<typeof node.simulate>
      if (input.mediaType === JSON_TYPE) {
        // Bounded parsing (size, depth, values) before anything converts it.
        const parsed = parseJsonBody(body)
        if (!("ok" in parsed)) return Effect.fail(parsed)
        simulated = node.simulateJson(parsed.value, options)
      } else simulated = node.simulate(body, options)
      return Effect.map(simulated, ({ ledger, value }) => {
        const extra = [headers.names.gasUsed, value.gasUsed.toString()]
        return input.bcs ? bcsReply(value.bcs, ledger, extra) : jsonReply(value.json, ledger, extra)
      })
    }
  }
  return { "simulation.simulate": simulate } as const
}
