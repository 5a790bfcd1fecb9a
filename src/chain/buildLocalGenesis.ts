/**
 * The local chain's genesis: vm's `buildGenesis` (the framework's genesis functions run in our VM,
 * the framework copied from the shipped devnet genesis) with `localGenesisParams` over devnet's
 * own parameters: chain id 4, our root key, one validator, the epoch length, pre-funded accounts.
 */
import * as Result from "effect/Result"
import { toHex } from "../bcs/index.js"
import { type AccountAddress, addressFromNumber } from "../domain/AccountAddress.js"
import { decodeGenesisTransaction } from "../domain/Genesis.js"
import { sha3 } from "../domain/hash.js"
import {
  buildGenesis,
  frameworkOfGenesis,
  genesisParamsOf,
  localGenesisParams,
  localGenesisVm
} from "../execution/genesis/index.js"
import { type KeyValueReader, stateViewFromReader } from "../move/vm/StateView.js"

/** `@core_resources`: the root account, holder of the mint capability (it delegates it to the faucet's account at boot). */
export const CORE_RESOURCES = addressFromNumber(0xa550c18)

/** The authentication key of an Ed25519 public key, sha3-256(key ‖ 0x00): the account's address too. */
export const ed25519AuthKey = (publicKey: Uint8Array): Uint8Array => {
  const material = new Uint8Array(publicKey.length + 1)
  material.set(publicKey)
  return sha3(material)
}

export interface LocalGenesisOptions {
  readonly chainId: number
  /** The Ed25519 public key of the root account (0xa550c18), the faucet's key. */
  readonly rootPublicKey: Uint8Array
  readonly epochIntervalSecs: number
  readonly accounts: ReadonlyArray<{ readonly address: AccountAddress; readonly amount: bigint }>
}

/** BCS of the local chain's genesis transaction (what the ledger imports), built from `base` (devnet's blob). */
export const buildLocalGenesis = (
  base: Uint8Array,
  options: LocalGenesisOptions
): Result.Result<Uint8Array, string> => {
  const decoded = decodeGenesisTransaction(base)
  if (Result.isFailure(decoded)) return Result.fail(`the base genesis does not decode: ${decoded.failure.message}`)
  const payload = decoded.success.payload
  if (payload._tag !== "Direct") return Result.fail("the base genesis is not a direct write set")
  const values = new Map<string, Uint8Array>()
  for (const e of payload.changeSet.writeSet.entries) if ("data" in e.op) values.set(toHex(e.keyBytes), e.op.data)
  const reader: KeyValueReader = {
    get: (k) => values.get(toHex(k)),
    getVersioned: (k) => {
      const v = values.get(toHex(k))
      return v === undefined ? undefined : { value: v, version: 0n }
    }
  }
  const vm = localGenesisVm()
  const params = localGenesisParams(genesisParamsOf(vm, stateViewFromReader(reader, "base-genesis")), {
    chainId: options.chainId,
    rootPublicKey: options.rootPublicKey,
    epochIntervalSecs: BigInt(options.epochIntervalSecs),
    accounts: options.accounts
  })
  const built = buildGenesis(frameworkOfGenesis(decoded.success), params, vm)
  if (built._tag === "Built") return Result.succeed(built.bytes)
  const f = built.failure
  return Result.fail(
    `${built.step} failed: ${f._tag === "Abort" ? `abort ${f.code}` : `${f.error.status}: ${f.error.detail}`}`
  )
}
