/**
 * BCS codecs for EntryFunction, TransactionPayload (0 Script, 2 EntryFunction, 3 Multisig,
 * 4 Payload::V1 {executable, extra_config}), RawTransaction and SignedTransaction. Hand-written:
 * this is the hottest decode in the node (every submitted and stored user transaction).
 *
 * Rejected on decode: ModuleBundle (1, retired), encrypted payloads (5) and the encrypted executable
 * (3), and a multisig payload other than EntryFunction.
 */
import { type BcsReader, type BcsWriter, Bcs, type Codec } from "../bcs/index.js"
import { ADDRESS_LENGTH } from "./AccountAddress.js"
import { readScript, readTypeTags, writeScript, writeTypeTags } from "./ScriptCodec.js"
import type {
  EntryFunction,
  RawTransaction,
  SignedTransaction,
  TransactionExecutable,
  TransactionExtraConfig,
  TransactionPayload
} from "./Transaction.js"
import { readTransactionAuthenticator, writeTransactionAuthenticator } from "./TransactionAuthenticatorCodec.js"
import { readIdentifier, readModuleId, writeModuleId } from "./TypeTagCodec.js"

export const writeEntryFunction = (w: BcsWriter, f: EntryFunction): void => {
  writeModuleId(w, f.module)
  w.string(f.function)
  writeTypeTags(w, f.typeArgs)
  w.uleb128(f.args.length)
  for (const a of f.args) w.bytesWithLength(a)
}

export const readEntryFunction = (r: BcsReader): EntryFunction => {
  const module = readModuleId(r)
  const fn = readIdentifier(r)
  const typeArgs = readTypeTags(r)
  const n = r.length(1)
  const args: Uint8Array[] = new Array(n)
  for (let i = 0; i < n; i++) args[i] = r.bytesWithLength()
  return { module, function: fn, typeArgs, args }
}

const writeExecutable = (w: BcsWriter, e: TransactionExecutable): void => {
  if (e._tag === "Script") {
    w.u8(0)
    writeScript(w, e.script)
  } else if (e._tag === "EntryFunction") {
    w.u8(1)
    writeEntryFunction(w, e.entryFunction)
  } else w.u8(2)
}

const readExecutable = (r: BcsReader): TransactionExecutable => {
  const start = r.offset
  const tag = r.uleb128()
  if (tag === 0) return { _tag: "Script", script: readScript(r) }
  if (tag === 1) return { _tag: "EntryFunction", entryFunction: readEntryFunction(r) }
  if (tag === 2) return { _tag: "Empty" }
  r.offset = start
  return r.fail(tag === 3 ? "encrypted executables are not supported" : `invalid TransactionExecutable variant ${tag}`)
}

const writeExtraConfig = (w: BcsWriter, c: TransactionExtraConfig): void => {
  w.u8(0)
  if (c.multisigAddress === undefined) w.u8(0)
  else w.u8(1).fixed(c.multisigAddress)
  if (c.replayProtectionNonce === undefined) w.u8(0)
  else w.u8(1).u64(c.replayProtectionNonce)
}

const readExtraConfig = (r: BcsReader): TransactionExtraConfig => {
  const start = r.offset
  const tag = r.uleb128()
  if (tag !== 0) {
    r.offset = start
    r.fail(`invalid TransactionExtraConfig variant ${tag}`)
  }
  const multisigAddress = r.optionTag() ? r.fixed(ADDRESS_LENGTH) : undefined
  const replayProtectionNonce = r.optionTag() ? r.u64() : undefined
  return { multisigAddress, replayProtectionNonce }
}

export const writeTransactionPayload = (w: BcsWriter, p: TransactionPayload): void => {
  switch (p._tag) {
    case "Script":
      w.u8(0)
      writeScript(w, p.script)
      return
    case "EntryFunction":
      w.u8(2)
      writeEntryFunction(w, p.entryFunction)
      return
    case "Multisig":
      w.u8(3).fixed(p.multisigAddress)
      if (p.entryFunction === undefined) w.u8(0)
      else {
        w.u8(1).u8(0)
        writeEntryFunction(w, p.entryFunction)
      }
      return
    case "PayloadV1":
      w.u8(4).u8(0)
      writeExecutable(w, p.executable)
      writeExtraConfig(w, p.extraConfig)
      return
  }
}

export const readTransactionPayload = (r: BcsReader): TransactionPayload => {
  const start = r.offset
  const tag = r.uleb128()
  switch (tag) {
    case 0:
      return { _tag: "Script", script: readScript(r) }
    case 2:
      return { _tag: "EntryFunction", entryFunction: readEntryFunction(r) }
    case 3: {
      const multisigAddress = r.fixed(ADDRESS_LENGTH)
      if (!r.optionTag()) return { _tag: "Multisig", multisigAddress, entryFunction: undefined }
      const inner = r.uleb128()
      if (inner !== 0) {
        r.offset--
        r.fail(`unsupported MultisigTransactionPayload variant ${inner}`)
      }
      return { _tag: "Multisig", multisigAddress, entryFunction: readEntryFunction(r) }
    }
    case 4: {
      const v = r.uleb128()
      if (v !== 0) {
        r.offset--
        r.fail(`invalid TransactionPayloadInner variant ${v}`)
      }
      return { _tag: "PayloadV1", executable: readExecutable(r), extraConfig: readExtraConfig(r) }
    }
    default:
      r.offset = start
      return r.fail(
        tag === 1
          ? "module bundle payloads are retired"
          : tag === 5
            ? "encrypted payloads are not supported"
            : `invalid TransactionPayload variant ${tag}`
      )
  }
}

export const writeRawTransaction = (w: BcsWriter, t: RawTransaction): void => {
  w.fixed(t.sender).u64(t.sequenceNumber)
  writeTransactionPayload(w, t.payload)
  w.u64(t.maxGasAmount).u64(t.gasUnitPrice).u64(t.expirationTimestampSecs).u8(t.chainId)
}

export const readRawTransaction = (r: BcsReader): RawTransaction => {
  const sender = r.fixed(ADDRESS_LENGTH)
  const sequenceNumber = r.u64()
  const payload = readTransactionPayload(r)
  return {
    sender,
    sequenceNumber,
    payload,
    maxGasAmount: r.u64(),
    gasUnitPrice: r.u64(),
    expirationTimestampSecs: r.u64(),
    chainId: r.u8()
  }
}

export const writeSignedTransaction = (w: BcsWriter, t: SignedTransaction): void => {
  writeRawTransaction(w, t.rawTransaction)
  writeTransactionAuthenticator(w, t.authenticator)
}

export const readSignedTransaction = (r: BcsReader): SignedTransaction => ({
  rawTransaction: readRawTransaction(r),
  authenticator: readTransactionAuthenticator(r)
})

export const entryFunctionCodec: Codec<EntryFunction> = Bcs.codec(writeEntryFunction, readEntryFunction)
export const transactionPayloadCodec: Codec<TransactionPayload> = Bcs.codec(
  writeTransactionPayload,
  readTransactionPayload
)
export const rawTransactionCodec: Codec<RawTransaction> = Bcs.codec(writeRawTransaction, readRawTransaction)
export const signedTransactionCodec: Codec<SignedTransaction> = Bcs.codec(writeSignedTransaction, readSignedTransaction)
