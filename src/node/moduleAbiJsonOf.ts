import * as Result from "effect/Result"
import { moduleAbiJson } from "../move/abi/moduleAbi.js"
import { deserializeModule } from "../move/binary/deserialize.js"

/**
 * The module endpoint's `abi` as JSON text: `null` when the stored bytes do not deserialize (as the
 * reference's `try_parse_abi`; never the case for modules the chain accepted).
 */
export const moduleAbiJsonOf = (bytes: Uint8Array): string => {
  const module = deserializeModule(bytes)
  return Result.isSuccess(module) ? moduleAbiJson(module.success) : "null"
}
