/**
 * Every constant of a module or script is of a constant type — a primitive other than `signer`, or
 * a vector of such — and its bytes are exactly one BCS value of that type (the reference's
 * `constants` pass: INVALID_CONSTANT_TYPE, MALFORMED_CONSTANT_DATA).
 *
 * Why: type safety already refuses loading a constant of another type (`LdConst`), and a malformed
 * constant fails the transaction that loads it; this refuses both at publish, wherever the
 * constant sits, as a network would.
 */
import { BcsError, BcsReader } from "../../bcs/index.js"
import type { CompiledModule } from "../binary/CompiledModule.js"
import type { SignatureToken } from "../binary/SignatureToken.js"
import { isConstantType } from "./typeSafetyTokens.js"
import type { VerifyFailure } from "./VerifyFailure.js"

/** Reads one value of constant type `t` (recursion is bounded by the type's depth, at most 20). */
const readConstant = (r: BcsReader, t: SignatureToken): void => {
  switch (t._tag) {
    case "Bool":
      r.bool()
      return
    case "U8":
    case "I8":
      r.fixed(1)
      return
    case "U16":
    case "I16":
      r.fixed(2)
      return
    case "U32":
    case "I32":
      r.fixed(4)
      return
    case "U64":
    case "I64":
      r.fixed(8)
      return
    case "U128":
    case "I128":
      r.fixed(16)
      return
    case "U256":
    case "I256":
    case "Address":
      r.fixed(32)
      return
    case "Vector": {
      const n = r.length(1)
      for (let i = 0; i < n; i++) readConstant(r, t.element)
      return
    }
    default:
      r.fail(`not a constant type: ${t._tag}`)
  }
}

export const verifyConstants = (m: Pick<CompiledModule, "constantPool">): VerifyFailure | undefined => {
  for (const [i, c] of m.constantPool.entries()) {
    if (!isConstantType(c.type))
      return {
        status: "INVALID_CONSTANT_TYPE",
        message: `constant ${i} is of a type constants may not have (${c.type._tag})`
      }
    try {
      const r = new BcsReader(c.data)
      readConstant(r, c.type)
      r.expectEnd()
    } catch (e) {
      if (!(e instanceof BcsError)) throw e
      return { status: "MALFORMED_CONSTANT_DATA", message: `constant ${i}: ${e.message}` }
    }
  }
  return undefined
}
