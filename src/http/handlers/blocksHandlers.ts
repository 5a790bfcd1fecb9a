import * as Effect from "effect/Effect"
import * as Result from "effect/Result"
import { parseBoolQuery, parseU64Path } from "../ReadParams.js"
import { bcsReply, jsonReply } from "../Reply.js"
import type { HandlerEnv, RouteSpec } from "./HandlerTypes.js"

/** `GET /v1/blocks/by_height/{block_height}`, `GET /v1/blocks/by_version/{version}`. */
export const blocksHandlers = (env: HandlerEnv) => {
  const blocks = env.node.reads.blocks
  const route = (param: string, read: typeof blocks.byHeight, readBcs: typeof blocks.byHeightBcs): RouteSpec => ({
    handler: (input) => {
      const at = parseU64Path(param, input.params[param]!)
      if (Result.isFailure(at)) return Effect.fail(at.failure)
      const withTransactions = parseBoolQuery("with_transactions", input.query.get("with_transactions"))
      if (Result.isFailure(withTransactions)) return Effect.fail(withTransactions.failure)
      // BCS (the followers' feed) is built without rendering the JSON.
      if (input.bcs)
        return Effect.map(readBcs(at.success, withTransactions.success), ({ ledger, value }) => bcsReply(value, ledger))
      return Effect.map(read(at.success, withTransactions.success), ({ ledger, value }) =>
        jsonReply(value.json, ledger)
      )
    }
  })
  return {
    "blocks.byHeight": route("block_height", blocks.byHeight, blocks.byHeightBcs),
    "blocks.byVersion": route("version", blocks.byVersion, blocks.byVersionBcs)
  } as const
}
