/**
 * An independent reading of a genesis blob for the read endpoints' tests: the write set and events
 * parsed with the TypeScript SDK's own BCS `Deserializer` and type-tag parsers (none of movenode's
 * codecs), so what the node serves is compared with values it did not compute.
 */
import { AccountAddress, Deserializer, StructTag, TypeTag, TypeTagStruct } from "@aptos-labs/ts-sdk"

export type OraclePath =
  | { readonly kind: "code"; readonly module: string }
  | { readonly kind: "resource"; readonly type: string }
  | {
      readonly kind: "group"
      readonly type: string
      readonly members: ReadonlyArray<{ readonly type: string; readonly bytes: Uint8Array }>
    }

export interface OracleWrite {
  /** BCS(StateKey), as the blob holds it. */
  readonly keyBytes: Uint8Array
  /** Short address form, as the API prints it. */
  readonly address: string
  readonly path: OraclePath
  readonly bytes: Uint8Array
}

export interface OracleTableWrite {
  readonly keyBytes: Uint8Array
  readonly handle: string
  readonly key: Uint8Array
  readonly bytes: Uint8Array
}

export interface OracleEvent {
  readonly type: string
  readonly key: { readonly creationNumber: bigint; readonly address: string } | undefined
  readonly sequenceNumber: bigint
  readonly data: Uint8Array
}

export interface GenesisOracle {
  readonly writes: ReadonlyArray<OracleWrite>
  readonly tableWrites: ReadonlyArray<OracleTableWrite>
  readonly events: ReadonlyArray<OracleEvent>
}

const shortAddress = (d: Deserializer): string => AccountAddress.deserialize(d).toStringShort()

/** A struct tag as the API prints a type (short addresses, ", " between type arguments). */
const structType = (d: Deserializer): string => new TypeTagStruct(StructTag.deserialize(d)).toString()

const writeOpBytes = (d: Deserializer): Uint8Array | undefined => {
  const op = d.deserializeUleb128AsU32()
  const metadata = () => {
    const v = d.deserializeUleb128AsU32()
    d.deserializeU64()
    d.deserializeU64()
    if (v === 1) d.deserializeU64()
  }
  switch (op) {
    case 0:
    case 1:
      return d.deserializeBytes()
    case 2:
      return undefined
    case 3:
    case 4: {
      const bytes = d.deserializeBytes()
      metadata()
      return bytes
    }
    case 5:
      metadata()
      return undefined
    default:
      throw new Error(`write op ${op}`)
  }
}

const groupMembers = (bytes: Uint8Array) => {
  const d = new Deserializer(bytes)
  const n = d.deserializeUleb128AsU32()
  const out: Array<{ type: string; bytes: Uint8Array }> = []
  for (let i = 0; i < n; i++) out.push({ type: structType(d), bytes: d.deserializeBytes() })
  return out
}

/** The genesis transaction's write set (creations only in both blobs) and events. */
export const readGenesis = (blob: Uint8Array): GenesisOracle => {
  const d = new Deserializer(blob)
  if (d.deserializeUleb128AsU32() !== 1) throw new Error("not a GenesisTransaction")
  if (d.deserializeUleb128AsU32() !== 0) throw new Error("not a Direct write set payload")
  if (d.deserializeUleb128AsU32() !== 0) throw new Error("not WriteSet::V0")
  const writes: OracleWrite[] = []
  const tableWrites: OracleTableWrite[] = []
  const n = d.deserializeUleb128AsU32()
  for (let i = 0; i < n; i++) {
    const keyStart = blob.length - d.remaining()
    const keyKind = d.deserializeUleb128AsU32()
    if (keyKind === 0) {
      const address = shortAddress(d)
      const path = new Deserializer(d.deserializeBytes())
      const pathKind = path.deserializeUleb128AsU32()
      const keyBytes = blob.slice(keyStart, blob.length - d.remaining())
      const bytes = writeOpBytes(d)
      if (bytes === undefined) throw new Error("a genesis deletes nothing")
      const parsed: OraclePath =
        pathKind === 0
          ? { kind: "code", module: `${shortAddress(path)}::${path.deserializeStr()}` }
          : pathKind === 1
            ? { kind: "resource", type: structType(path) }
            : { kind: "group", type: structType(path), members: groupMembers(bytes) }
      writes.push({
        keyBytes,
        address,
        path: parsed,
        bytes
      })
    } else if (keyKind === 1) {
      const handle = AccountAddress.deserialize(d).toStringLong()
      const key = d.deserializeBytes()
      const keyBytes = blob.slice(keyStart, blob.length - d.remaining())
      const bytes = writeOpBytes(d)
      if (bytes === undefined) throw new Error("a genesis deletes nothing")
      tableWrites.push({ keyBytes, handle, key, bytes })
    } else throw new Error(`state key ${keyKind}`)
  }
  const events: OracleEvent[] = []
  const m = d.deserializeUleb128AsU32()
  for (let i = 0; i < m; i++) {
    const v = d.deserializeUleb128AsU32()
    if (v === 0) {
      const creationNumber = d.deserializeU64()
      const address = shortAddress(d)
      const sequenceNumber = d.deserializeU64()
      events.push({
        key: { creationNumber, address },
        sequenceNumber,
        type: TypeTag.deserialize(d).toString(),
        data: d.deserializeBytes()
      })
    } else
      events.push({
        key: undefined,
        sequenceNumber: 0n,
        type: TypeTag.deserialize(d).toString(),
        data: d.deserializeBytes()
      })
  }
  return { writes, tableWrites, events }
}
