/**
 * BCS codecs for `Script` and `TransactionArgument` (0 u8, 1 u64, 2 u128, 3 address, 4 vector<u8>,
 * 5 bool, 6 u16, 7 u32, 8 u256, 9 serialized bytes, 10…15 i8…i256 as two's complement).
 */
import { type BcsReader, type BcsWriter, Bcs, type Codec } from "../bcs/index.js"
import { ADDRESS_LENGTH } from "./AccountAddress.js"
import type { Script, TransactionArgument } from "./Transaction.js"
import type { TypeTag } from "./TypeTag.js"
import { readTypeTag, writeTypeTag } from "./TypeTagCodec.js"

export const writeTransactionArgument = (w: BcsWriter, a: TransactionArgument): void => {
  switch (a._tag) {
    case "U8":
      w.u8(0).u8(a.value)
      return
    case "U64":
      w.u8(1).u64(a.value)
      return
    case "U128":
      w.u8(2).u128(a.value)
      return
    case "Address":
      w.u8(3).fixed(a.value)
      return
    case "U8Vector":
      w.u8(4).bytesWithLength(a.value)
      return
    case "Bool":
      w.u8(5).bool(a.value)
      return
    case "U16":
      w.u8(6).u16(a.value)
      return
    case "U32":
      w.u8(7).u32(a.value)
      return
    case "U256":
      w.u8(8).u256(a.value)
      return
    case "Serialized":
      w.u8(9).bytesWithLength(a.value)
      return
    case "I8":
      w.u8(10).signed(8, a.value)
      return
    case "I16":
      w.u8(11).signed(16, a.value)
      return
    case "I32":
      w.u8(12).signed(32, a.value)
      return
    case "I64":
      w.u8(13).signed(64, a.value)
      return
    case "I128":
      w.u8(14).signed(128, a.value)
      return
    case "I256":
      w.u8(15).signed(256, a.value)
      return
  }
}

export const readTransactionArgument = (r: BcsReader): TransactionArgument => {
  const start = r.offset
  const tag = r.uleb128()
  switch (tag) {
    case 0:
      return { _tag: "U8", value: r.u8() }
    case 1:
      return { _tag: "U64", value: r.u64() }
    case 2:
      return { _tag: "U128", value: r.u128() }
    case 3:
      return { _tag: "Address", value: r.fixed(ADDRESS_LENGTH) }
    case 4:
      return { _tag: "U8Vector", value: r.bytesWithLength() }
    case 5:
      return { _tag: "Bool", value: r.bool() }
    case 6:
      return { _tag: "U16", value: r.u16() }
    case 7:
      return { _tag: "U32", value: r.u32() }
    case 8:
      return { _tag: "U256", value: r.u256() }
    case 9:
      return { _tag: "Serialized", value: r.bytesWithLength() }
    case 10:
      return { _tag: "I8", value: r.signed(8) as number }
    case 11:
      return { _tag: "I16", value: r.signed(16) as number }
    case 12:
      return { _tag: "I32", value: r.signed(32) as number }
    case 13:
      return { _tag: "I64", value: r.signed(64) as bigint }
    case 14:
      return { _tag: "I128", value: r.signed(128) as bigint }
    case 15:
      return { _tag: "I256", value: r.signed(256) as bigint }
    default:
      r.offset = start
      return r.fail(`invalid TransactionArgument variant ${tag}`)
  }
}

export const writeTypeTags = (w: BcsWriter, ts: ReadonlyArray<TypeTag>): void => {
  w.uleb128(ts.length)
  for (const t of ts) writeTypeTag(w, t)
}

export const readTypeTags = (r: BcsReader): TypeTag[] => {
  const n = r.length(1)
  const out: TypeTag[] = new Array(n)
  for (let i = 0; i < n; i++) out[i] = readTypeTag(r)
  return out
}

export const writeScript = (w: BcsWriter, s: Script): void => {
  w.bytesWithLength(s.code)
  writeTypeTags(w, s.typeArgs)
  w.uleb128(s.args.length)
  for (const a of s.args) writeTransactionArgument(w, a)
}

export const readScript = (r: BcsReader): Script => {
  const code = r.bytesWithLength()
  const typeArgs = readTypeTags(r)
  const n = r.length(2)
  const args: TransactionArgument[] = new Array(n)
  for (let i = 0; i < n; i++) args[i] = readTransactionArgument(r)
  return { code, typeArgs, args }
}

export const transactionArgumentCodec: Codec<TransactionArgument> = Bcs.codec(
  writeTransactionArgument,
  readTransactionArgument
)
export const scriptCodec: Codec<Script> = Bcs.codec(writeScript, readScript)
