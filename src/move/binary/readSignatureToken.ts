import type { BinaryCursor } from "./BinaryCursor.js"
import { fail } from "./BinaryError.js"
import {
  SIGNATURE_TOKEN_DEPTH_MAX,
  TABLE_INDEX_MAX,
  TYPE_PARAMETER_COUNT_MAX,
  TYPE_PARAMETER_INDEX_MAX
} from "./limits.js"
import { primitiveTokens, type SignatureToken } from "./SignatureToken.js"
import { ABILITY_ALL } from "./CompiledModule.js"

/** A type constructor still waiting for its arguments. */
type Frame =
  | { readonly k: "Vector" | "Reference" | "MutableReference" }
  | { readonly k: "Inst"; readonly handle: number; readonly arity: number; readonly args: SignatureToken[] }
  | {
      readonly k: "Function"
      readonly abilities: number
      readonly argCount: number
      readonly resultCount: number
      readonly args: SignatureToken[]
      readonly results: SignatureToken[]
    }

const frameVector: Frame = { k: "Vector" }
const frameRef: Frame = { k: "Reference" }
const frameMutRef: Frame = { k: "MutableReference" }

const since = (c: BinaryCursor, version: number, what: string, at: number): void => {
  if (c.version < version)
    fail("FeatureNotInVersion", `${what} needs bytecode v${version}, module is v${c.version}`, at)
}

/** Reads one token's head: either a complete token or a frame needing arguments. */
const readHead = (c: BinaryCursor): SignatureToken | Frame => {
  const at = c.offset
  const b = c.u8()
  switch (b) {
    case 0x01:
      return primitiveTokens.Bool
    case 0x02:
      return primitiveTokens.U8
    case 0x03:
      return primitiveTokens.U64
    case 0x04:
      return primitiveTokens.U128
    case 0x05:
      return primitiveTokens.Address
    case 0x06:
      return frameRef
    case 0x07:
      return frameMutRef
    case 0x08:
      return { _tag: "Struct", handle: c.uleb(TABLE_INDEX_MAX, "struct handle index") }
    case 0x09:
      return { _tag: "TypeParameter", index: c.uleb(TYPE_PARAMETER_INDEX_MAX, "type parameter index") }
    case 0x0a:
      return frameVector
    case 0x0b: {
      const handle = c.uleb(TABLE_INDEX_MAX, "struct handle index")
      const arity = c.uleb(TYPE_PARAMETER_COUNT_MAX, "type argument count")
      if (arity === 0) fail("Malformed", "struct instantiation with arity 0", at)
      return { k: "Inst", handle, arity, args: [] }
    }
    case 0x0c:
      return primitiveTokens.Signer
    case 0x0d:
      since(c, 6, "u16", at)
      return primitiveTokens.U16
    case 0x0e:
      since(c, 6, "u32", at)
      return primitiveTokens.U32
    case 0x0f:
      since(c, 6, "u256", at)
      return primitiveTokens.U256
    case 0x10: {
      since(c, 8, "function type", at)
      const abilities = c.uleb(ABILITY_ALL, "ability set")
      const argCount = c.uleb(TYPE_PARAMETER_COUNT_MAX, "function argument count")
      const resultCount = c.uleb(TYPE_PARAMETER_COUNT_MAX, "function result count")
      if (argCount + resultCount === 0) return { _tag: "Function", args: [], results: [], abilities }
      return { k: "Function", abilities, argCount, resultCount, args: [], results: [] }
    }
    case 0x11:
    case 0x12:
    case 0x13:
    case 0x14:
    case 0x15:
    case 0x16: {
      since(c, 9, "signed integer type", at)
      const tags = ["I8", "I16", "I32", "I64", "I128", "I256"] as const
      return primitiveTokens[tags[b - 0x11]!]
    }
    default:
      return fail("UnknownSerializedType", `unknown signature token byte 0x${b.toString(16)}`, at)
  }
}

/** Adds `tok` to `frame`; returns the finished token, or undefined while arguments are missing. */
const apply = (frame: Frame, tok: SignatureToken): SignatureToken | undefined => {
  switch (frame.k) {
    case "Vector":
      return { _tag: "Vector", element: tok }
    case "Reference":
      return { _tag: "Reference", to: tok }
    case "MutableReference":
      return { _tag: "MutableReference", to: tok }
    case "Inst":
      frame.args.push(tok)
      return frame.args.length === frame.arity
        ? { _tag: "StructInstantiation", handle: frame.handle, typeArgs: frame.args }
        : undefined
    case "Function":
      if (frame.args.length < frame.argCount) frame.args.push(tok)
      else frame.results.push(tok)
      return frame.args.length === frame.argCount && frame.results.length === frame.resultCount
        ? { _tag: "Function", args: frame.args, results: frame.results, abilities: frame.abilities }
        : undefined
  }
}

const isFrame = (x: SignatureToken | Frame): x is Frame => "k" in x

/**
 * Reads one signature token with an explicit stack of unfinished constructors (never recursion),
 * refusing nesting deeper than SIGNATURE_TOKEN_DEPTH_MAX.
 */
export const readSignatureToken = (c: BinaryCursor): SignatureToken => {
  const first = readHead(c)
  if (!isFrame(first)) return first
  const stack: Frame[] = [first]
  for (;;) {
    if (stack.length > SIGNATURE_TOKEN_DEPTH_MAX) fail("LimitExceeded", "signature token nested too deeply", c.offset)
    const next = readHead(c)
    if (isFrame(next)) {
      stack.push(next)
      continue
    }
    let tok: SignatureToken | undefined = next
    while (tok !== undefined) {
      const top = stack[stack.length - 1]!
      tok = apply(top, tok)
      if (tok === undefined) break
      stack.pop()
      if (stack.length === 0) return tok
    }
  }
}
