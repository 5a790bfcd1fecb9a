import * as Result from "effect/Result"
import { addressToShortString } from "../../domain/AccountAddress.js"
import { replayProtectorOf } from "../../domain/ReplayProtector.js"
import type {
  BlockMetadata,
  BlockMetadataExt,
  SignedTransaction,
  ValidatorTransaction
} from "../../domain/Transaction.js"
import type { CommittedTransaction } from "../../ledger/Ledger.js"
import type { ModuleSource } from "../../move/layout/ModuleSource.js"
import { eventsJson } from "./eventsJson.js"
import { hexJson, type JsonObject, type JsonValue } from "./moveJson.js"
import { type PayloadRenderError, payloadJson, writeSetPayloadJson } from "./payloadJson.js"
import { signatureJson } from "./signatureJson.js"
import { noTableTypes, type TableTypes } from "../tableInfo/TableInfoIndex.js"
import { writeSetChangesJson } from "./writeSetJson.js"

/**
 * What rendering a transaction with its outcome needs: a committed transaction as the ledger holds
 * it, or a simulated one shaped the same way (zero hashes, the version it would have).
 */
export type RenderableTransaction = Pick<
  CommittedTransaction,
  "version" | "transaction" | "writeSet" | "events" | "info" | "accumulatorRootHash" | "timestampUsec" | "outcome"
>

/** The `TransactionInfo` fields every committed transaction starts with, `changes` included. */
const infoJson = (modules: ModuleSource, tables: TableTypes, t: RenderableTransaction): JsonObject => ({
  version: t.version.toString(),
  hash: hexJson(t.info.transactionHash),
  state_change_hash: hexJson(t.info.stateChangeHash),
  event_root_hash: hexJson(t.info.eventRootHash),
  state_checkpoint_hash: t.info.stateCheckpointHash === undefined ? null : hexJson(t.info.stateCheckpointHash),
  gas_used: t.info.gasUsed.toString(),
  success: t.info.status._tag === "Success",
  vm_status: t.outcome.vmStatus,
  accumulator_root_hash: hexJson(t.accumulatorRootHash),
  changes: writeSetChangesJson(modules, t.writeSet, tables)
})

/** The request fields of a user transaction, payload rendered with the modules it calls. */
const requestJson = (
  modules: ModuleSource,
  signed: SignedTransaction
): Result.Result<JsonObject, PayloadRenderError> => {
  const raw = signed.rawTransaction
  const rp = replayProtectorOf(raw)
  return Result.map(payloadJson(modules, raw.payload), (payload) => ({
    sender: addressToShortString(raw.sender),
    sequence_number: raw.sequenceNumber.toString(),
    max_gas_amount: raw.maxGasAmount.toString(),
    gas_unit_price: raw.gasUnitPrice.toString(),
    expiration_timestamp_secs: raw.expirationTimestampSecs.toString(),
    payload,
    signature: signatureJson(signed.authenticator),
    replay_protection_nonce: rp._tag === "Nonce" ? rp.nonce.toString() : null
  }))
}

/**
 * A transaction still in the mempool (`pending_transaction`): its hash and request fields, no
 * outcome. `hash` is its committed hash (`transactionHash` of the UserTransaction).
 */
export const pendingTransactionJson = (
  modules: ModuleSource,
  signed: SignedTransaction,
  hash: Uint8Array
): Result.Result<JsonObject, PayloadRenderError> =>
  Result.map(requestJson(modules, signed), (request) => ({
    hash: hexJson(hash),
    ...request,
    type: "pending_transaction"
  }))

const metadataJson = (m: BlockMetadata): JsonObject => ({
  id: hexJson(m.id),
  epoch: m.epoch.toString(),
  round: m.round.toString()
})

/**
 * `block_metadata_extension` of a `BlockMetadataExt`: `{"type": "v0"}` or `{"type": "v1",
 * "randomness": hex | null}`. The reference's API knows these two; V2 (randomness and a decryption
 * key) and V3 are shown as v1 with the randomness they carry (none for V3).
 */
const extensionJson = (m: BlockMetadataExt): JsonObject => {
  switch (m._tag) {
    case "V0":
      return { type: "v0" }
    case "V1":
    case "V2":
      return { randomness: m.randomness === undefined ? null : hexJson(m.randomness.randomness), type: "v1" }
    case "V3":
      return { randomness: null, type: "v1" }
  }
}

const blockMetadataJson = (
  modules: ModuleSource,
  tables: TableTypes,
  t: RenderableTransaction,
  m: BlockMetadata,
  extension: JsonObject | undefined
): JsonObject => {
  const out: JsonObject = {
    ...infoJson(modules, tables, t),
    ...metadataJson(m),
    events: eventsJson(modules, t.events),
    previous_block_votes_bitvec: Array.from(m.previousBlockVotesBitvec),
    proposer: addressToShortString(m.proposer),
    failed_proposer_indices: [...m.failedProposerIndices],
    timestamp: m.timestampUsecs.toString()
  }
  if (extension !== undefined) out.block_metadata_extension = extension
  out.type = "block_metadata_transaction"
  return out
}

/**
 * A validator transaction: the DKG transcript (`dkg_result`) or an observed JWK update
 * (`observed_jwk_update`; JWKs shown as their on-chain type name and hex data, an approximation of
 * the reference's JWK objects: a local chain runs no JWK consensus).
 */
const validatorJson = (
  modules: ModuleSource,
  tables: TableTypes,
  t: RenderableTransaction,
  v: ValidatorTransaction
): JsonObject => {
  const common = {
    ...infoJson(modules, tables, t),
    events: eventsJson(modules, t.events),
    timestamp: t.timestampUsec.toString()
  }
  const decoder = new TextDecoder("utf-8", { fatal: false })
  const body: JsonObject =
    v._tag === "DKGResult"
      ? {
          dkg_transcript: {
            epoch: v.epoch.toString(),
            author: addressToShortString(v.author),
            payload: hexJson(v.transcriptBytes)
          },
          validator_transaction_type: "dkg_result"
        }
      : {
          quorum_certified_update: {
            update: {
              issuer: decoder.decode(v.issuer),
              version: Number(v.version),
              jwks: v.jwks.map((j): JsonValue => ({ type_name: j.typeName, data: hexJson(j.data) }))
            },
            multi_sig: {
              signer_indices: bitIndices(v.validatorBitmask),
              ...(v.signature === undefined ? {} : { sig: hexJson(v.signature) })
            }
          },
          validator_transaction_type: "observed_jwk_update"
        }
  return { ...common, ...body, type: "validator_transaction" }
}

const bitIndices = (bitmask: Uint8Array): number[] => {
  const out: number[] = []
  for (let i = 0; i < bitmask.length * 8; i++) if ((bitmask[i >> 3]! & (0x80 >> (i & 7))) !== 0) out.push(i)
  return out
}

/**
 * A transaction with its outcome, as `GET /v1/transactions/by_version/{v}`, `by_hash`, the
 * transaction lists, blocks and simulation show it (the reference's `Transaction` union):
 * `user_transaction`, `genesis_transaction`, `block_metadata_transaction`,
 * `state_checkpoint_transaction`, `block_epilogue_transaction` or `validator_transaction`, the
 * transaction info first. Move values are rendered with `modules` (the state after the
 * transaction, for a committed one), table items with the tables' types known (`tables`: a node's
 * table-info index; none for a simulation, whose new tables no index has seen). Fails only on a payload with no JSON form.
 */
export const transactionJson = (
  modules: ModuleSource,
  t: RenderableTransaction,
  tables: TableTypes = noTableTypes
): Result.Result<JsonObject, PayloadRenderError> => {
  const tx = t.transaction
  switch (tx._tag) {
    case "UserTransaction":
      return Result.map(requestJson(modules, tx.signed), (request) => ({
        ...infoJson(modules, tables, t),
        ...request,
        events: eventsJson(modules, t.events),
        timestamp: t.timestampUsec.toString(),
        type: "user_transaction"
      }))
    case "GenesisTransaction":
      return Result.succeed({
        ...infoJson(modules, tables, t),
        payload: writeSetPayloadJson(modules, tx.payload, tables),
        events: eventsJson(modules, t.events),
        type: "genesis_transaction"
      })
    case "BlockMetadata":
      return Result.succeed(blockMetadataJson(modules, tables, t, tx.metadata, undefined))
    case "BlockMetadataExt":
      return Result.succeed(blockMetadataJson(modules, tables, t, tx.metadata.metadata, extensionJson(tx.metadata)))
    case "StateCheckpoint":
      return Result.succeed({
        ...infoJson(modules, tables, t),
        timestamp: t.timestampUsec.toString(),
        type: "state_checkpoint_transaction"
      })
    case "BlockEpilogue":
      return Result.succeed({
        ...infoJson(modules, tables, t),
        timestamp: t.timestampUsec.toString(),
        block_end_info:
          tx.blockEndInfo === undefined
            ? null
            : {
                block_gas_limit_reached: tx.blockEndInfo.blockGasLimitReached,
                block_output_limit_reached: tx.blockEndInfo.blockOutputLimitReached,
                // Plain u64 in the reference's type (not U64): JSON numbers.
                block_effective_block_gas_units: Number(tx.blockEndInfo.blockEffectiveBlockGasUnits),
                block_approx_output_size: Number(tx.blockEndInfo.blockApproxOutputSize)
              },
        type: "block_epilogue_transaction"
      })
    case "ValidatorTransaction":
      return Result.succeed(validatorJson(modules, tables, t, tx.transaction))
  }
}
