/**
 * Test helper: the pieces every hand-assembled Move module or script in the tests is made of
 * (there is no Move compiler here), so each fixture states only what makes it itself — its
 * handles, signatures, identifiers and code — and leaves the tables it does not use empty:
 * - `ix`/`op`/`ldU64`/`ldU8`: instructions;
 * - `functionHandle`: a handle without type parameters' constraints, access specifiers or attributes;
 * - `moduleOf`/`scriptOf`: a `CompiledModule`/`CompiledScript` (bytecode v7 unless given) with
 *   every table the fixture leaves out empty;
 * - `bytesConstant`: a `vector<u8>` constant holding a text's UTF-8 bytes.
 */
import { BcsWriter } from "../../src/bcs/index.js"
import type {
  CompiledModule,
  CompiledScript,
  FunctionHandle,
  Instruction
} from "../../src/move/binary/CompiledModule.js"
import { Opcode } from "../../src/move/binary/Opcode.js"
import { primitiveTokens as P, type SignatureToken } from "../../src/move/binary/SignatureToken.js"

/** An instruction with an index operand (a local, a handle, a constant…). */
export const ix = (o: Opcode, index: number): Instruction => ({ op: o, index }) as Instruction
/** An instruction without operands. */
export const op = (o: Opcode): Instruction => ({ op: o }) as Instruction
export const ldU64 = (value: bigint): Instruction => ({ op: Opcode.LdU64, value }) as Instruction
export const ldU8 = (value: number): Instruction => ({ op: Opcode.LdU8, value }) as Instruction

export const signerRef: SignatureToken = { _tag: "Reference", to: P.Signer }

/** `typeParameters` are the ability constraints of the function's type parameters (0: none). */
export const functionHandle = (
  module: number,
  name: number,
  parameters: number,
  returns: number,
  typeParameters: ReadonlyArray<number> = []
): FunctionHandle => ({
  module,
  name,
  parameters,
  returns,
  typeParameters,
  accessSpecifiers: undefined,
  attributes: []
})

type ModuleParts = Pick<
  CompiledModule,
  "moduleHandles" | "functionHandles" | "signatures" | "identifiers" | "addressIdentifiers"
> &
  Partial<CompiledModule>

export const moduleOf = (parts: ModuleParts): CompiledModule => ({
  version: 7,
  selfModuleHandleIndex: 0,
  structHandles: [],
  functionInstantiations: [],
  constantPool: [],
  metadata: [],
  structDefs: [],
  structDefInstantiations: [],
  functionDefs: [],
  fieldHandles: [],
  fieldInstantiations: [],
  friendDecls: [],
  variantFieldHandles: [],
  variantFieldInstantiations: [],
  structVariantHandles: [],
  structVariantInstantiations: [],
  ...parts
})

type ScriptParts = Pick<
  CompiledScript,
  "moduleHandles" | "functionHandles" | "signatures" | "identifiers" | "addressIdentifiers" | "parameters" | "code"
> &
  Partial<CompiledScript>

export const scriptOf = (parts: ScriptParts): CompiledScript => ({
  version: 7,
  structHandles: [],
  functionInstantiations: [],
  constantPool: [],
  metadata: [],
  typeParameters: [],
  accessSpecifiers: undefined,
  ...parts
})

/** A `vector<u8>` constant holding `text`'s UTF-8 bytes. */
export const bytesConstant = (text: string): CompiledModule["constantPool"][number] => ({
  type: { _tag: "Vector", element: P.U8 },
  data: new BcsWriter(16).bytesWithLength(new TextEncoder().encode(text)).toBytes()
})
