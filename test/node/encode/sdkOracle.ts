/** Test helper: the same transaction built by the TypeScript SDK (local ABI, no network). */
import {
  AccountAddress,
  ChainId,
  type EntryFunctionArgumentTypes,
  generateSigningMessageForTransaction,
  generateTransactionPayloadWithABI,
  MultiAgentTransaction,
  parseTypeTag,
  RawTransaction,
  type SimpleEntryFunctionArgumentTypes,
  SimpleTransaction,
  TransactionExecutableEmpty,
  TransactionExecutableEntryFunction,
  TransactionExtraConfigV1,
  TransactionInnerPayloadV1,
  type TransactionPayload,
  TransactionPayloadEntryFunction,
  TransactionPayloadMultiSig
} from "@aptos-labs/ts-sdk"
import { fromHex } from "../../../src/bcs/index.js"
import type { JsonValue } from "../../../src/move/json/bcsToJson.js"
import type { MoveTypeLayout } from "../../../src/move/layout/MoveTypeLayout.js"

export interface SdkRequest {
  readonly sender: string
  readonly sequenceNumber: bigint
  readonly maxGasAmount: bigint
  readonly gasUnitPrice: bigint
  readonly expirationTimestampSecs: bigint
  readonly chainId: number
  readonly function: string
  readonly typeArguments: ReadonlyArray<string>
  /** Non-signer parameter type strings (generics as T0…). */
  readonly parameters: ReadonlyArray<string>
  readonly typeParameterCount: number
  readonly arguments: ReadonlyArray<SimpleEntryFunctionArgumentTypes | EntryFunctionArgumentTypes>
  readonly secondarySigners?: ReadonlyArray<string> | undefined
  readonly replayProtectionNonce?: bigint | undefined
  readonly multisigAddress?: string | undefined
}

/** The SDK's strict (AIP-40) parser wants the long form for anything but special addresses. */
export const longAddress = (a: string): string => "0x" + a.replace(/^0x/, "").padStart(64, "0")

/** An output-form JSON value of `layout` as the SDK's simple argument. */
export const toSdkArgument = (layout: MoveTypeLayout, v: JsonValue): any => {
  switch (layout._tag) {
    case "vector":
      return layout.element._tag === "u8"
        ? fromHex(v as string)
        : (v as JsonValue[]).map((x) => toSdkArgument(layout.element, x))
    case "struct":
    case "enum": {
      const { module, name } = layout.struct
      if (module === "string" && name === "String") return v
      if (module === "object" && name === "Object") return longAddress((v as { inner: string }).inner)
      if (module === "option") {
        const vec = (v as { vec: JsonValue }).vec
        if (typeof vec === "string") return vec === "0x" ? undefined : fromHex(vec)![0]
        const e =
          layout._tag === "struct"
            ? (layout.fields[0]!.layout as { element: MoveTypeLayout }).element
            : layout.variants[1]!.fields[0]!.layout
        return (vec as JsonValue[]).length === 0 ? undefined : toSdkArgument(e, (vec as JsonValue[])[0]!)
      }
      throw new Error(`the SDK takes no plain struct argument (${module}::${name})`)
    }
    case "address":
      return longAddress(v as string)
    default:
      return v
  }
}

/** The SDK's payload V1 form (what `convertPayloadToInnerPayload` builds; not exported by the SDK). */
const toOrderless = (payload: TransactionPayload, nonce: bigint): TransactionPayload => {
  if (payload instanceof TransactionPayloadEntryFunction)
    return new TransactionInnerPayloadV1(
      new TransactionExecutableEntryFunction(payload.entryFunction),
      new TransactionExtraConfigV1(undefined, nonce)
    )
  if (payload instanceof TransactionPayloadMultiSig) {
    const inner = payload.multiSig.transaction_payload?.transaction_payload
    return new TransactionInnerPayloadV1(
      inner === undefined ? new TransactionExecutableEmpty() : new TransactionExecutableEntryFunction(inner as any),
      new TransactionExtraConfigV1(payload.multiSig.multisig_address, nonce)
    )
  }
  throw new Error("unsupported payload for the orderless form")
}

export const sdkSigningMessage = (req: SdkRequest): Uint8Array => {
  const abi = {
    typeParameters: Array.from({ length: req.typeParameterCount }, () => ({ constraints: [] })),
    parameters: req.parameters.map((p) => parseTypeTag(p, { allowGenerics: true }))
  }
  let payload: TransactionPayload = generateTransactionPayloadWithABI({
    function: req.function as `${string}::${string}::${string}`,
    typeArguments: [...req.typeArguments],
    functionArguments: [...req.arguments] as any,
    abi,
    ...(req.multisigAddress === undefined ? {} : { multisigAddress: longAddress(req.multisigAddress) })
  } as any)
  if (req.replayProtectionNonce !== undefined) payload = toOrderless(payload, req.replayProtectionNonce)
  const raw = new RawTransaction(
    AccountAddress.from(longAddress(req.sender)),
    req.replayProtectionNonce === undefined ? req.sequenceNumber : (1n << 64n) - 1n,
    payload,
    req.maxGasAmount,
    req.gasUnitPrice,
    req.expirationTimestampSecs,
    new ChainId(req.chainId)
  )
  const txn =
    req.secondarySigners === undefined
      ? new SimpleTransaction(raw)
      : new MultiAgentTransaction(
          raw,
          req.secondarySigners.map((s) => AccountAddress.from(longAddress(s)))
        )
  return generateSigningMessageForTransaction(txn)
}
