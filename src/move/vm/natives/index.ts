/**
 * The native function table: `0x1::<module>::<function>` → implementation, one file per framework
 * module. A native not listed here fails with MISSING_DEPENDENCY naming it when called.
 */
import { accountAbstractionNatives } from "./account_abstraction.js"
import { aggregatorFactoryNatives, aggregatorNatives } from "./aggregator.js"
import { aggregatorV2Natives } from "./aggregator_v2.js"
import { bcsNatives, fromBytesNative } from "./bcs.js"
import { bls12381Natives } from "./bls12381.js"
import { ristretto255Natives } from "./ristretto255.js"
import { secp256k1Natives } from "./secp256k1.js"
import { bulletproofsNatives, confidentialRangeProofsNatives, cryptoAlgebraNatives } from "./unsupportedCrypto.js"
import { cmpNatives } from "./cmp.js"
import { codeNatives } from "./code.js"
import { consensusConfigNatives } from "./consensus_config.js"
import { debugNatives } from "./debug.js"
import { ed25519Natives, multiEd25519Natives } from "./ed25519.js"
import { eventNatives } from "./event.js"
import { dispatchableFungibleAssetNatives, functionInfoNatives } from "./function_info.js"
import { aptosHashNatives, hashNatives } from "./hash.js"
import { memNatives } from "./mem.js"
import type { NativeFunction, NativeTable } from "./NativeContext.js"
import { objectNatives } from "./object.js"
import { randomnessNatives } from "./randomness.js"
import { reflectNatives } from "./reflect.js"
import { createSignerNatives, signerNatives } from "./signer.js"
import { stateStorageNatives } from "./state_storage.js"
import { storageSlotNatives } from "./storage_slot.js"
import { stringNatives } from "./string.js"
import { stringUtilsNatives } from "./string_utils.js"
import { tableNatives } from "./table.js"
import { transactionContextNatives } from "./transaction_context.js"
import { typeInfoNatives } from "./type_info.js"
import { vectorNatives } from "./vector.js"

export * from "./NativeContext.js"

const modules: Record<string, Record<string, NativeFunction>> = {
  vector: vectorNatives,
  string: stringNatives,
  string_utils: stringUtilsNatives,
  bcs: bcsNatives,
  from_bcs: { from_bytes: fromBytesNative },
  util: { from_bytes: fromBytesNative },
  hash: hashNatives,
  ed25519: ed25519Natives,
  bls12381: bls12381Natives,
  secp256k1: secp256k1Natives,
  ristretto255: ristretto255Natives,
  crypto_algebra: cryptoAlgebraNatives,
  ristretto255_bulletproofs: bulletproofsNatives,
  confidential_range_proofs: confidentialRangeProofsNatives,
  multi_ed25519: multiEd25519Natives,
  aptos_hash: aptosHashNatives,
  signer: signerNatives,
  create_signer: createSignerNatives,
  /** The 2022 framework created signers through these friends of `create_signer`'s predecessor. */
  account: createSignerNatives,
  genesis: createSignerNatives,
  type_info: typeInfoNatives,
  cmp: cmpNatives,
  mem: memNatives,
  debug: debugNatives,
  table: tableNatives,
  aggregator: aggregatorNatives,
  aggregator_factory: aggregatorFactoryNatives,
  aggregator_v2: aggregatorV2Natives,
  event: eventNatives,
  object: objectNatives,
  transaction_context: transactionContextNatives,
  function_info: functionInfoNatives,
  dispatchable_fungible_asset: dispatchableFungibleAssetNatives,
  reflect: reflectNatives,
  code: codeNatives,
  state_storage: stateStorageNatives,
  consensus_config: consensusConfigNatives,
  randomness: randomnessNatives,
  storage_slot: storageSlotNatives,
  account_abstraction: accountAbstractionNatives
}

/** The natives of the Aptos framework at 0x1 this VM implements. */
export const frameworkNatives: NativeTable = new Map(
  Object.entries(modules).flatMap(([module, fns]) =>
    Object.entries(fns).map(([fn, impl]) => [`0x1::${module}::${fn}`, impl])
  )
)
