/**
 * BCS codecs for the block-level transactions: BlockMetadata, BlockMetadataExt (V0..V3),
 * ValidatorTransaction, the block epilogue payload and HashValue (a length-prefixed 32-byte vector
 * in BCS, unlike an address).
 */
import type { BcsReader, BcsWriter } from "../bcs/index.js"
import { ADDRESS_LENGTH } from "./AccountAddress.js"
import type {
  BlockEndInfo,
  BlockMetadata,
  BlockMetadataExt,
  BlockTxnDecryptionKey,
  JwkMoveStruct,
  Randomness,
  ValidatorTransaction
} from "./Transaction.js"

/**
 * A `HashValue` in BCS is its 32 bytes, with no length prefix (aptos-crypto serializes it as a
 * fixed `[u8; 32]`). Checked against both genesis blobs: the table handles they hold are
 * sha3(CryptoHash(SessionId::Genesis { id: HashValue::zero() }) ‖ counter), which only match when
 * the session id's `HashValue` is written without a prefix (test/move/vm/SessionId.test.ts).
 */
export const writeHashValue = (w: BcsWriter, h: Uint8Array): void => {
  if (h.length !== 32) throw new RangeError(`a HashValue is 32 bytes, got ${h.length}`)
  w.fixed(h)
}

export const readHashValue = (r: BcsReader): Uint8Array => r.fixed(32).slice()

export const writeBlockMetadata = (w: BcsWriter, m: BlockMetadata): void => {
  writeHashValue(w, m.id)
  w.u64(m.epoch).u64(m.round).fixed(m.proposer).bytesWithLength(m.previousBlockVotesBitvec)
  w.uleb128(m.failedProposerIndices.length)
  for (const i of m.failedProposerIndices) w.u32(i)
  w.u64(m.timestampUsecs)
}

export const readBlockMetadata = (r: BcsReader): BlockMetadata => {
  const id = readHashValue(r)
  const epoch = r.u64()
  const round = r.u64()
  const proposer = r.fixed(ADDRESS_LENGTH)
  const previousBlockVotesBitvec = r.bytesWithLength()
  const n = r.length(4)
  const failedProposerIndices: number[] = new Array(n)
  for (let i = 0; i < n; i++) failedProposerIndices[i] = r.u32()
  return { id, epoch, round, proposer, previousBlockVotesBitvec, failedProposerIndices, timestampUsecs: r.u64() }
}

const writeRandomness = (w: BcsWriter, x: Randomness | undefined): void => {
  if (x === undefined) {
    w.u8(0)
    return
  }
  w.u8(1).u64(x.epoch).u64(x.round)
  writeHashValue(w, x.blockId)
  w.u64(x.timestamp).bytesWithLength(x.randomness)
}

const readRandomness = (r: BcsReader): Randomness | undefined => {
  if (!r.optionTag()) return undefined
  const epoch = r.u64()
  const round = r.u64()
  const blockId = readHashValue(r)
  return { epoch, round, blockId, timestamp: r.u64(), randomness: r.bytesWithLength() }
}

const writeDecryptionKey = (w: BcsWriter, k: BlockTxnDecryptionKey | undefined): void => {
  if (k === undefined) w.u8(0)
  else w.u8(1).u64(k.epoch).u64(k.round).bytesWithLength(k.decryptionKey)
}

const readDecryptionKey = (r: BcsReader): BlockTxnDecryptionKey | undefined =>
  r.optionTag() ? { epoch: r.u64(), round: r.u64(), decryptionKey: r.bytesWithLength() } : undefined

export const writeBlockMetadataExt = (w: BcsWriter, m: BlockMetadataExt): void => {
  w.u8(m._tag === "V0" ? 0 : m._tag === "V1" ? 1 : m._tag === "V2" ? 2 : 3)
  writeBlockMetadata(w, m.metadata)
  switch (m._tag) {
    case "V0":
      return
    case "V1":
      writeRandomness(w, m.randomness)
      return
    case "V2":
      writeRandomness(w, m.randomness)
      writeDecryptionKey(w, m.decryptionKey)
      return
    case "V3":
      w.bytesWithLength(m.featurePayloads)
      w.uleb128(m.dkgNeeded.length)
      for (const b of m.dkgNeeded) w.bool(b)
      return
  }
}

export const readBlockMetadataExt = (r: BcsReader): BlockMetadataExt => {
  const start = r.offset
  const tag = r.uleb128()
  if (tag > 3) {
    r.offset = start
    r.fail(`invalid BlockMetadataExt variant ${tag}`)
  }
  const metadata = readBlockMetadata(r)
  if (tag === 0) return { _tag: "V0", metadata }
  if (tag === 1) return { _tag: "V1", metadata, randomness: readRandomness(r) }
  if (tag === 2) return { _tag: "V2", metadata, randomness: readRandomness(r), decryptionKey: readDecryptionKey(r) }
  const featurePayloads = r.bytesWithLength()
  const n = r.length(1)
  const dkgNeeded: boolean[] = new Array(n)
  for (let i = 0; i < n; i++) dkgNeeded[i] = r.bool()
  return { _tag: "V3", metadata, featurePayloads, dkgNeeded }
}

export const writeValidatorTransaction = (w: BcsWriter, v: ValidatorTransaction): void => {
  if (v._tag === "DKGResult") {
    w.u8(0).u64(v.epoch).fixed(v.author).bytesWithLength(v.transcriptBytes)
    return
  }
  w.u8(1).bytesWithLength(v.issuer).u64(v.version).uleb128(v.jwks.length)
  for (const j of v.jwks) w.string(j.typeName).bytesWithLength(j.data)
  w.bytesWithLength(v.validatorBitmask)
  if (v.signature === undefined) w.u8(0)
  else w.u8(1).bytesWithLength(v.signature)
}

export const readValidatorTransaction = (r: BcsReader): ValidatorTransaction => {
  const start = r.offset
  const tag = r.uleb128()
  if (tag === 0)
    return { _tag: "DKGResult", epoch: r.u64(), author: r.fixed(ADDRESS_LENGTH), transcriptBytes: r.bytesWithLength() }
  if (tag !== 1) {
    r.offset = start
    r.fail(`invalid ValidatorTransaction variant ${tag}`)
  }
  const issuer = r.bytesWithLength()
  const version = r.u64()
  const n = r.length(2)
  const jwks: JwkMoveStruct[] = new Array(n)
  for (let i = 0; i < n; i++) jwks[i] = { typeName: r.string(), data: r.bytesWithLength() }
  const validatorBitmask = r.bytesWithLength()
  const signature = r.optionTag() ? r.bytesWithLength() : undefined
  return { _tag: "ObservedJWKUpdate", issuer, version, jwks, validatorBitmask, signature }
}

const writeBlockEndInfo = (w: BcsWriter, b: BlockEndInfo): void => {
  w.u8(0)
    .bool(b.blockGasLimitReached)
    .bool(b.blockOutputLimitReached)
    .u64(b.blockEffectiveBlockGasUnits)
    .u64(b.blockApproxOutputSize)
}

const readBlockEndInfo = (r: BcsReader): BlockEndInfo => {
  const start = r.offset
  const tag = r.uleb128()
  if (tag !== 0) {
    r.offset = start
    r.fail(`invalid BlockEndInfo variant ${tag}`)
  }
  return {
    blockGasLimitReached: r.bool(),
    blockOutputLimitReached: r.bool(),
    blockEffectiveBlockGasUnits: r.u64(),
    blockApproxOutputSize: r.u64()
  }
}

export interface BlockEpiloguePayload {
  readonly blockId: Uint8Array
  readonly blockEndInfo: BlockEndInfo | undefined
  readonly feeDistribution?: ReadonlyArray<readonly [bigint, bigint]> | undefined
}

/** V0 when `feeDistribution` is undefined, V1 otherwise. */
export const writeBlockEpiloguePayload = (w: BcsWriter, p: BlockEpiloguePayload): void => {
  if (p.blockEndInfo === undefined) throw new RangeError("a block epilogue needs its BlockEndInfo")
  w.u8(p.feeDistribution === undefined ? 0 : 1)
  writeHashValue(w, p.blockId)
  writeBlockEndInfo(w, p.blockEndInfo)
  if (p.feeDistribution !== undefined) {
    w.u8(0).uleb128(p.feeDistribution.length)
    for (const [k, v] of p.feeDistribution) w.u64(k).u64(v)
  }
}

export const readBlockEpiloguePayload = (r: BcsReader): BlockEpiloguePayload => {
  const start = r.offset
  const tag = r.uleb128()
  if (tag > 1) {
    r.offset = start
    r.fail(`invalid BlockEpiloguePayload variant ${tag}`)
  }
  const blockId = readHashValue(r)
  const blockEndInfo = readBlockEndInfo(r)
  if (tag === 0) return { blockId, blockEndInfo }
  const vStart = r.offset
  if (r.uleb128() !== 0) {
    r.offset = vStart
    r.fail("invalid FeeDistribution variant")
  }
  const n = r.length(16)
  const feeDistribution: Array<readonly [bigint, bigint]> = new Array(n)
  for (let i = 0; i < n; i++) feeDistribution[i] = [r.u64(), r.u64()] as const
  return { blockId, blockEndInfo, feeDistribution }
}
