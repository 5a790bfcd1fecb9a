import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import { blockBcs } from "../../node/render/transactionBcs.js"
import { parseBoolQuery, parseU64Path } from "../ReadParams.js"
import { bcsReply, jsonReply } from "../Reply.js"
import type { HandlerEnv, RouteSpec } from "./HandlerTypes.js"

/** `GET /v1/blocks/by_height/{block_height}`, `GET /v1/blocks/by_version/{version}`. */
export const blocksHandlers = (env: HandlerEnv) => {
  const blocks = env.node.reads.blocks
  const route = (param: string, read: typeof blocks.byHeight): RouteSpec => ({
    handler: (input) => {
      const at = parseU64Path(param, input.params[param]!)
      if (Result.isFailure(at)) return Effect.fail(at.failure)
      const withTransactions = parseBoolQuery("with_transactions", input.query.get("with_transactions"))
      if (Result.isFailure(withTransactions)) return Effect.fail(withTransactions.failure)
      return Effect.map(read(at.success, withTransactions.success), ({ ledger, value }) =>
        input.bcs
          ? bcsReply(blockBcs(value.block, value.hash, value.transactions), ledger)
          : jsonReply(value.json, ledger)
      )
    }
  })
  return {
    "blocks.byHeight": route("block_height", blocks.byHeight),
    "blocks.byVersion": route("version", blocks.byVersion)
  } as const
}
