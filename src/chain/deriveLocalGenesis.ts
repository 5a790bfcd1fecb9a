/**
 * A local chain's genesis derived from an existing one (the devnet genesis the package ships), the
 * second way local-chain.md §8.8 names: copy its writes and patch what makes the chain ours, with
 * the framework's own functions run as system calls in our VM:
 *
 * - the chain id (`0x1::chain_id::ChainId`), 4 by default: what the SDK's `Network.LOCAL` assumes;
 * - the root account (`@core_resources`, 0xa550c18, which holds the mint capability): its
 *   authentication key rotated to a key we hold (`account::rotate_authentication_key_internal`), so
 *   the faucet can sign as it;
 * - pre-funded accounts: `aptos_coin::mint` from the root account, each;
 * - optionally the epoch interval (`block::update_epoch_interval_microsecs`).
 *
 * Everything else (framework, validators, configs, feature flags) is the base genesis's, so blocks
 * are proposed by its first validator. The result is one `GenesisTransaction` (a direct write set:
 * the base's writes squashed with the patches, its events followed by theirs). Building our own
 * genesis from the framework's genesis functions is vm's `buildGenesis` (src/execution/genesis/);
 * `LocalChain` uses this derivation until then.
 */
import * as Result from "effect/Result"
import { BcsWriter, toHex } from "../bcs/index.js"
import { type AccountAddress, addressFromNumber } from "../domain/AccountAddress.js"
import { decodeGenesisTransaction } from "../domain/Genesis.js"
import { sha3 } from "../domain/hash.js"
import type { ChangeSet, Transaction } from "../domain/Transaction.js"
import { writeTransaction } from "../domain/TransactionCodec.js"
import type { WriteSetEntry } from "../domain/WriteSet.js"
import { executeSystemCall } from "../execution/executeSystemCall.js"
import { OverlayStateView } from "../execution/OverlayStateView.js"
import { squashChangeSets } from "../execution/squashChangeSets.js"
import { MoveVm } from "../move/vm/MoveVm.js"
import type { SessionCall } from "../move/vm/VmSession.js"
import { type KeyValueReader, stateViewFromReader } from "../move/vm/StateView.js"
import { ConfigKeys } from "./onChainConfig.js"

export const CORE_RESOURCES = addressFromNumber(0xa550c18)
const ONE = addressFromNumber(1)

export interface LocalGenesisOptions {
  readonly chainId: number
  /** The Ed25519 public key the root account will answer to (32 bytes). */
  readonly rootPublicKey: Uint8Array
  readonly accounts: ReadonlyArray<{ readonly address: AccountAddress; readonly amount: bigint }>
  /** µs; undefined keeps the base genesis's. */
  readonly epochIntervalUsec?: bigint | undefined
}

export interface LocalGenesis {
  readonly transaction: Extract<Transaction, { _tag: "GenesisTransaction" }>
  /** BCS of the transaction: what the ledger imports as version 0. */
  readonly bytes: Uint8Array
}

/** The authentication key of an Ed25519 public key: sha3-256(key ‖ 0x00); the account's address too. */
export const ed25519AuthKey = (publicKey: Uint8Array): Uint8Array => {
  const material = new Uint8Array(publicKey.length + 1)
  material.set(publicKey)
  return sha3(material)
}

const u64 = (v: bigint) => new BcsWriter(8).u64(v).toBytes()

export const deriveLocalGenesis = (
  base: Uint8Array,
  options: LocalGenesisOptions
): Result.Result<LocalGenesis, string> => {
  const decoded = decodeGenesisTransaction(base)
  if (Result.isFailure(decoded)) return Result.fail(`the base genesis does not decode: ${decoded.failure.message}`)
  const payload = decoded.success.payload
  if (payload._tag !== "Direct") return Result.fail("the base genesis is not a direct write set")
  if (!Number.isInteger(options.chainId) || options.chainId < 1 || options.chainId > 255)
    return Result.fail("the chain id must be in 1..255")

  const values = new Map<string, Uint8Array>()
  for (const e of payload.changeSet.writeSet.entries) if ("data" in e.op) values.set(toHex(e.keyBytes), e.op.data)
  const reader: KeyValueReader = {
    get: (k) => values.get(toHex(k)),
    getVersioned: (k) => {
      const v = values.get(toHex(k))
      return v === undefined ? undefined : { value: v, version: 0n }
    }
  }
  const view = new OverlayStateView(stateViewFromReader(reader, "local-genesis-base"))
  const vm = new MoveVm()
  let changes: ChangeSet = payload.changeSet
  let step = 0

  const run = (call: SessionCall, what: string): string | undefined => {
    const id = sha3(new TextEncoder().encode(`movenode local genesis ${step++}`))
    const out = executeSystemCall(vm, view, call, { id: { _tag: "Genesis", id }, chainId: options.chainId })
    if (out._tag !== "Success")
      return `${what} failed: ${out._tag === "Abort" ? `abort ${out.code} in ${out.location?.name ?? "?"}` : `${out.error.status}: ${out.error.detail}`}`
    view.push({ writeSet: out.changeSet.writeSet, version: 0n })
    const squashed = squashChangeSets(changes, out.changeSet)
    if (Result.isFailure(squashed)) return `${what}: ${squashed.failure}`
    changes = squashed.success
    return undefined
  }

  const authKey = new BcsWriter(40).bytesWithLength(ed25519AuthKey(options.rootPublicKey)).toBytes()
  const problem =
    run(
      {
        module: { address: ONE, name: "account" },
        function: "rotate_authentication_key_internal",
        tyArgs: [],
        signers: [CORE_RESOURCES],
        args: [authKey]
      },
      "rotating the root account's key"
    ) ??
    (options.epochIntervalUsec === undefined
      ? undefined
      : run(
          {
            module: { address: ONE, name: "block" },
            function: "update_epoch_interval_microsecs",
            tyArgs: [],
            signers: [ONE],
            args: [u64(options.epochIntervalUsec)]
          },
          "setting the epoch interval"
        )) ??
    options.accounts.reduce<string | undefined>(
      (p, a) =>
        p ??
        run(
          {
            module: { address: ONE, name: "aptos_coin" },
            function: "mint",
            tyArgs: [],
            signers: [CORE_RESOURCES],
            args: [a.address, u64(a.amount)]
          },
          `funding ${toHex(a.address)}`
        ),
      undefined
    )
  if (problem !== undefined) return Result.fail(problem)

  // The chain id is plain data: `ChainId { id: u8 }` written over the base's.
  const chainIdEntry = changes.writeSet.entries.find((e) => toHex(e.keyBytes) === toHex(ConfigKeys.chainId))
  if (chainIdEntry === undefined) return Result.fail("the base genesis does not write 0x1::chain_id::ChainId")
  const entries: WriteSetEntry[] = changes.writeSet.entries.map((e) =>
    e === chainIdEntry ? { ...e, op: { _tag: "Creation", data: Uint8Array.of(options.chainId) } } : e
  )
  const transaction: LocalGenesis["transaction"] = {
    _tag: "GenesisTransaction",
    payload: { _tag: "Direct", changeSet: { writeSet: { entries }, events: changes.events } }
  }
  const w = new BcsWriter(1 << 20)
  writeTransaction(w, transaction)
  return Result.succeed({ transaction, bytes: w.toBytes() })
}
