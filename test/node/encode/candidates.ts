/** Test helper: devnet-genesis entry functions whose arguments the SDK takes as plain values, and a checker. */
import { Result } from "effect"
import fc from "fast-check"
import { expect } from "vitest"
import { toHex } from "../../../src/bcs/index.js"
import { addressToShortString } from "../../../src/domain/AccountAddress.js"
import type { TypeTag } from "../../../src/domain/TypeTag.js"
import { parseTypeTag } from "../../../src/domain/TypeTagString.js"
import type { CompiledModule } from "../../../src/move/binary/CompiledModule.js"
import type { SignatureToken } from "../../../src/move/binary/SignatureToken.js"
import { type MoveTypeLayout, specialStruct } from "../../../src/move/layout/MoveTypeLayout.js"
import { encodeSubmission } from "../../../src/node/encode/buildSigningMessage.js"
import { parameterLayout } from "../../../src/node/encode/convertArguments.js"
import { isSignerParam } from "../../../src/node/encode/jsonTypeName.js"
import { toInputForm } from "../../move/json/arbitraries.js"
import { genesisModules, tokenToTypeString } from "./genesisModules.js"
import { sdkSigningMessage, toSdkArgument } from "./sdkOracle.js"

export const { source, modules } = genesisModules("devnet")
const APT = "0x1::aptos_coin::AptosCoin"
const aptTag = Result.getOrThrow(parseTypeTag(APT))

export interface Candidate {
  readonly id: string
  readonly params: ReadonlyArray<string>
  readonly layouts: ReadonlyArray<MoveTypeLayout>
  readonly typeParameterCount: number
}

/** Layouts the SDK takes as plain values: no user structs, enums, closures or signers. */
const sdkRepresentable = (l: MoveTypeLayout): boolean => {
  switch (l._tag) {
    case "vector":
      return sdkRepresentable(l.element)
    case "struct":
    case "enum": {
      const special = specialStruct(l.struct)
      if (special === "String" || special === "Object") return true
      if (special !== "Option") return false
      const e =
        l._tag === "struct"
          ? (l.fields[0]!.layout as { element: MoveTypeLayout }).element
          : l.variants[1]!.fields[0]!.layout
      return sdkRepresentable(e)
    }
    case "function":
    case "signer":
      return false
    default:
      return true
  }
}

export const candidates: Candidate[] = []
for (const { address, name, module } of modules) {
  for (const def of module.functionDefs) {
    if (!def.isEntry) continue
    const handle = module.functionHandles[def.function]!
    const tokens: SignatureToken[] = module.signatures[handle.parameters]!.filter((t) => !isSignerParam(t))
    const typeArgs: TypeTag[] = handle.typeParameters.map(() => aptTag)
    const layouts = tokens.map((t) => parameterLayout(module as CompiledModule, t, typeArgs, source))
    if (!layouts.every(Result.isSuccess)) continue
    const ls = layouts.map((l) => (l as Result.Success<MoveTypeLayout, never>).success)
    if (!ls.every(sdkRepresentable)) continue
    // A bare `T` parameter takes its type argument's layout: AptosCoin is a user struct, skipped above.
    candidates.push({
      id: `${address}::${name}::${module.identifiers[handle.name]}`,
      params: tokens.map((t) => tokenToTypeString(module, t)),
      layouts: ls,
      typeParameterCount: handle.typeParameters.length
    })
  }
}

const u64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n })
const address = fc.uint8Array({ minLength: 32, maxLength: 32 }).map(addressToShortString)
const mode = fc.constantFrom(
  "single",
  "multiAgent",
  "multiAgentEmpty",
  "orderless",
  "orderlessMultiAgent",
  "multisig",
  "multisigOrderless"
)

export const headerArb = fc.record({
  sender: address,
  sequenceNumber: u64,
  maxGasAmount: u64,
  gasUnitPrice: u64,
  expirationTimestampSecs: u64,
  chainId: fc.integer({ min: 0, max: 255 }),
  nonce: u64,
  secondary: fc.array(address, { minLength: 1, maxLength: 3 }),
  multisig: address,
  mode
})

export const check = (c: Candidate, header: any, values: ReadonlyArray<any>) => {
  const typeArguments = Array.from({ length: c.typeParameterCount }, () => APT)
  const entry = {
    type: "entry_function_payload",
    function: c.id,
    type_arguments: typeArguments,
    arguments: values.map((v, i) => toInputForm(c.layouts[i]!, v))
  }
  const m: string = header.mode
  const multisig = m.startsWith("multisig")
  const orderless = m.includes("rderless")
  const secondary = m === "multiAgentEmpty" ? [] : m.includes("ultiAgent") ? header.secondary : undefined
  const body: Record<string, unknown> = {
    sender: header.sender,
    sequence_number: String(header.sequenceNumber),
    max_gas_amount: String(header.maxGasAmount),
    gas_unit_price: String(header.gasUnitPrice),
    expiration_timestamp_secs: String(header.expirationTimestampSecs),
    payload: multisig
      ? { type: "multisig_payload", multisig_address: header.multisig, transaction_payload: entry }
      : entry,
    signature: { type: "ignored" }
  }
  if (secondary !== undefined) body.secondary_signers = secondary
  if (orderless) body.replay_protection_nonce = String(header.nonce)
  const ours = encodeSubmission(body, source, header.chainId)
  if (Result.isFailure(ours)) throw new Error(`${c.id}: ${ours.failure.stage}: ${ours.failure.message}`)
  const theirs = sdkSigningMessage({
    sender: header.sender,
    sequenceNumber: header.sequenceNumber,
    maxGasAmount: header.maxGasAmount,
    gasUnitPrice: header.gasUnitPrice,
    expirationTimestampSecs: header.expirationTimestampSecs,
    chainId: header.chainId,
    function: c.id,
    typeArguments,
    parameters: c.params,
    typeParameterCount: c.typeParameterCount,
    arguments: values.map((v, i) => toSdkArgument(c.layouts[i]!, v)),
    secondarySigners: secondary,
    replayProtectionNonce: orderless ? header.nonce : undefined,
    multisigAddress: multisig ? header.multisig : undefined
  })
  expect(toHex(ours.success), c.id).toBe(toHex(theirs))
}
