/**
 * The API's Move type strings: parsing and canonical printing.
 *
 * Grammar (whitespace allowed between tokens): `bool`, `u8`…`u256`, `i8`…`i256`, `address`,
 * `signer`, `vector<T>`, `0xADDR::module::Name<T1, T2>`, generic parameters `T0`, `T1`…, and at the
 * top level `&T` / `&mut T`. Addresses are relaxed (`0x` + 1 to 64 hex digits, either case).
 * Printing is canonical as the reference prints: short addresses, `", "` between type arguments.
 *
 * Nesting is bounded like the reference's `MAX_RECURSIVE_TYPES_ALLOWED` (8 by default): each
 * vector, struct and reference level adds one, and a struct needs one level more for its tag. The
 * parser recurses only as deep as that limit, never throws, and returns a Result.
 */
import * as Result from "effect/Result"
import { type AccountAddress, addressToShortString, parseAddress } from "./AccountAddress.js"
import { isValidIdentifier } from "./Identifier.js"
import { PRIMITIVE_TYPE_NAMES, type PrimitiveTypeTag } from "./TypeTag.js"
import { boundedPrefix } from "./boundedText.js"

export interface MoveStructType {
  readonly address: AccountAddress
  readonly module: string
  readonly name: string
  readonly typeArgs: ReadonlyArray<MoveType>
}

export type MoveType =
  | PrimitiveTypeTag
  | { readonly _tag: "vector"; readonly element: MoveType }
  | { readonly _tag: "struct"; readonly struct: MoveStructType }
  | { readonly _tag: "generic"; readonly index: number }
  | { readonly _tag: "reference"; readonly mutable: boolean; readonly to: MoveType }

/** The reference's `MAX_RECURSIVE_TYPES_ALLOWED` for user-supplied types. */
export const MAX_RECURSIVE_TYPES_ALLOWED = 8

export class MoveTypeParseError {
  readonly _tag = "MoveTypeParseError"
  constructor(readonly message: string) {}
}

export interface MoveTypeParseOptions {
  /** Deepest nesting accepted (default 8). */
  readonly maxDepth?: number
  /** Accept `T0`, `T1`… (ABI types); off for type arguments given by users. */
  readonly allowGenerics?: boolean
  /** Accept `&T` / `&mut T` at the top level. */
  readonly allowReferences?: boolean
}

const PRIMITIVES: Record<string, PrimitiveTypeTag> = Object.fromEntries(
  PRIMITIVE_TYPE_NAMES.map((n) => [n, { _tag: n } as PrimitiveTypeTag])
)

class Fail {
  constructor(readonly message: string) {}
}

const isWordChar = (c: number): boolean =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36

/** A cursor over the input; `fail` throws a private sentinel caught at the entry point. */
class Parser {
  i = 0
  constructor(
    readonly s: string,
    readonly maxDepth: number,
    readonly allowGenerics: boolean
  ) {}

  fail(message: string): never {
    throw new Fail(message)
  }

  ws(): void {
    while (this.i < this.s.length) {
      const c = this.s.charCodeAt(this.i)
      if (c === 32 || c === 9 || c === 10 || c === 13) this.i++
      else break
    }
  }

  peek(): string {
    this.ws()
    return this.s[this.i] ?? ""
  }

  expect(tok: string): void {
    this.ws()
    if (!this.s.startsWith(tok, this.i)) this.fail(`expected '${tok}' at position ${this.i}`)
    this.i += tok.length
  }

  word(): string {
    this.ws()
    const start = this.i
    while (this.i < this.s.length && isWordChar(this.s.charCodeAt(this.i))) this.i++
    if (start === this.i) this.fail(`expected a name at position ${start}`)
    return this.s.slice(start, this.i)
  }

  identifier(what: string): string {
    const w = this.word()
    if (!isValidIdentifier(w)) this.fail(`invalid ${what} name '${boundedPrefix(w)}'`)
    return w
  }

  depth(d: number): void {
    if (d > this.maxDepth) this.fail(`type nesting exceeds the limit of ${this.maxDepth}`)
  }

  type(d: number): MoveType {
    this.depth(d)
    const w = this.word()
    const prim = PRIMITIVES[w]
    if (prim !== undefined) return prim
    if (w === "vector") {
      this.expect("<")
      const element = this.type(d + 1)
      this.expect(">")
      return { _tag: "vector", element }
    }
    if (w.startsWith("0x") || w.startsWith("0X")) return { _tag: "struct", struct: this.struct(w, d) }
    if (this.allowGenerics && /^T\d{1,5}$/.test(w)) return { _tag: "generic", index: Number(w.slice(1)) }
    return this.fail(`unknown type '${boundedPrefix(w)}'`)
  }

  struct(addressWord: string, d: number): MoveStructType {
    const addr = parseAddress(addressWord)
    if (Result.isFailure(addr)) this.fail(`invalid address '${boundedPrefix(addressWord)}'`)
    this.expect("::")
    const module = this.identifier("module")
    this.expect("::")
    const name = this.identifier("struct")
    const typeArgs: MoveType[] = []
    if (this.peek() === "<") {
      this.depth(d + 1)
      this.i++
      for (;;) {
        typeArgs.push(this.type(d + 1))
        const c = this.peek()
        if (c === ",") this.i++
        else if (c === ">") {
          this.i++
          break
        } else this.fail(`expected ',' or '>' at position ${this.i}`)
      }
    } else this.depth(d + 1)
    return { address: (addr as Result.Success<AccountAddress, unknown>).success, module, name, typeArgs }
  }

  top(allowReferences: boolean): MoveType {
    let t: MoveType
    if (allowReferences && this.peek() === "&") {
      this.i++
      this.ws()
      let mutable = false
      if (this.s.startsWith("mut", this.i) && !isWordChar(this.s.charCodeAt(this.i + 3))) {
        mutable = true
        this.i += 3
      }
      t = { _tag: "reference", mutable, to: this.type(1) }
    } else t = this.type(0)
    this.ws()
    if (this.i !== this.s.length) this.fail(`unexpected '${this.s.slice(this.i, this.i + 10)}' at position ${this.i}`)
    return t
  }
}

/** Parses a Move type string; never throws. */
export const parseMoveType = (
  input: string,
  options: MoveTypeParseOptions = {}
): Result.Result<MoveType, MoveTypeParseError> => {
  const p = new Parser(input, options.maxDepth ?? MAX_RECURSIVE_TYPES_ALLOWED, options.allowGenerics ?? false)
  try {
    return Result.succeed(p.top(options.allowReferences ?? false))
  } catch (e) {
    if (e instanceof Fail)
      return Result.fail(new MoveTypeParseError(`Invalid Move type '${boundedPrefix(input)}': ${e.message}`))
    return Result.fail(new MoveTypeParseError(`Invalid Move type '${boundedPrefix(input)}'`))
  }
}

/** Canonical printing, as the reference's Display of MoveType. */
export const moveTypeToString = (t: MoveType): string => {
  switch (t._tag) {
    case "vector":
      return `vector<${moveTypeToString(t.element)}>`
    case "struct":
      return moveStructTypeToString(t.struct)
    case "generic":
      return `T${t.index}`
    case "reference":
      return `${t.mutable ? "&mut " : "&"}${moveTypeToString(t.to)}`
    default:
      return t._tag
  }
}

export const moveStructTypeToString = (s: MoveStructType): string => {
  const base = `${addressToShortString(s.address)}::${s.module}::${s.name}`
  return s.typeArgs.length === 0 ? base : `${base}<${s.typeArgs.map(moveTypeToString).join(", ")}>`
}
