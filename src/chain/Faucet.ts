/**
 * The faucet (the reference's `aptos-faucet-core` MintFunder as `run-localnet` configures it):
 * funding an account is an ordinary mempool client sending a real transaction signed by the root
 * account, `0x1::aptos_coin::mint(receiver, amount)` from the core-resources account (0xa550c18),
 * which the local genesis gave the mint capability and whose key the node holds. No rate limit,
 * no maximum amount; it answers as soon as the transaction is accepted (the reference's
 * `wait_for_transactions = false`), with its hash.
 *
 * Delegation at boot, as the reference's faucet does it (unless `--do-not-delegate`): given a
 * `delegate` key, the root mints 100,000,000,000 octas to that account and delegates its mint
 * capability to it, the account claims it, and from then on the faucet funds as that account (the
 * root key stays unused by the faucet). So a new local chain has three faucet transactions before
 * the first request, as the reference's has — clients count on them (the SDK's e2e suite reads two
 * APT activities before funding anything). A fund request waits for the delegation; a chain
 * restarted with the capability already claimed funds as the delegate at once.
 *
 * Where the root key is not ours (a fork of a real network: `provisioned` is given, and the chain's
 * `@core_resources` has another key or none, checked on the first funding), the faucet funds by
 * `0x1::aptos_account::transfer` from the account of the `provisioned` key instead, which it gives
 * an account and APT by state edits when it runs low (`provisionedFunder.ts`, through the test
 * controls' balance control).
 *
 * Its sequence numbers are tracked here (read from the chain the first time and after a failure),
 * so concurrent requests get consecutive numbers; at most `maxInFlight` of its transactions wait in
 * the pool at once (the pool holds 100 per sender), the others wait for a block to free a slot.
 */
import * as Clock from "effect/Clock"
import * as Option from "effect/Option"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as Semaphore from "effect/Semaphore"
import { Bcs, toHex } from "../bcs/index.js"
import { type AccountAddress, addressFromNumber, addressToShortString } from "../domain/AccountAddress.js"
import { signedTransactionCodec } from "../domain/PayloadCodec.js"
import { signingMessage } from "../domain/signingMessage.js"
import { stateKeyCodec } from "../domain/StateKeyCodec.js"
import type { RawTransaction, SignedTransaction } from "../domain/Transaction.js"
import { Ledger } from "../ledger/Ledger.js"
import { accountResourceKey, accountSequenceNumber } from "./accountSequenceNumber.js"
import type { SubmitError } from "./ChainError.js"
import { ed25519AuthKey } from "./buildLocalGenesis.js"
import { ChainEvents } from "./ChainEvents.js"
import { BlockProducer } from "./BlockProducer.js"
import { ChainClockService } from "./controls/ChainClock.js"
import { writeSetOf } from "./controls/stateEdits.js"
import { type Ed25519Signer, ed25519Signer } from "./ed25519Signer.js"
import { Mempool } from "./Mempool.js"
import { provisionEdits, rootKeyHeld } from "./provisionedFunder.js"

/** The reference faucet's `AptosTapErrorCode` names used here, with their HTTP status. */
export const FaucetErrorCodes = {
  InvalidRequest: 400,
  TransactionFailed: 403,
  AptosApiError: 500,
  FunderAccountProblem: 503,
  ServerOverloaded: 503
} as const

export class FaucetError extends Schema.TaggedError<FaucetError>()("FaucetError", {
  code: Schema.Literals([
    "InvalidRequest",
    "TransactionFailed",
    "AptosApiError",
    "FunderAccountProblem",
    "ServerOverloaded"
  ]),
  message: Schema.String,
  /** Hashes (hex, no 0x) of transactions submitted before the failure. */
  txnHashes: Schema.Array(Schema.String)
}) {}

export interface FaucetConfigShape {
  /** The root account's Ed25519 private key (32 bytes), the one the local genesis was built with. */
  readonly rootPrivateKey: Uint8Array
  /** The funder: `@core_resources` (0xa550c18) by default. */
  readonly funder?: AccountAddress | undefined
  readonly chainId: number
  /** The reference's faucet: 500,000 units, its gas price, 30 s expiry. */
  readonly maxGasAmount?: bigint | undefined
  readonly gasUnitPrice?: bigint | undefined
  readonly expirationSecs?: number | undefined
  /** Faucet transactions pooled at once (below the pool's 100 per sender). */
  readonly maxInFlight?: number | undefined
  /**
   * The key of the account the root delegates its mint capability to at boot (see above); none =
   * the root funds (a chain mined by hand, or a fork where the root key is not ours).
   */
  readonly delegate?: Uint8Array | undefined
  /**
   * A key the faucet funds with (by transfer, its APT given by state edits) where the chain's root
   * account is not the root key's (a fork of a network whose root key we do not hold); none = the
   * root always funds.
   */
  readonly provisioned?: Uint8Array | undefined
}

/** A transaction the faucet submitted, with its hash. */
export interface FundingTransaction {
  readonly hash: Uint8Array
  readonly transaction: SignedTransaction
}

export interface FaucetService {
  /** The account that funds: the delegate once the delegation at boot is done, the root before. */
  readonly funder: AccountAddress
  /** Funds `receiver` with `amount` octas (none = 0, refused for an existing account): the transactions submitted. */
  readonly fund: (
    receiver: AccountAddress,
    amount: bigint | undefined
  ) => Effect.Effect<ReadonlyArray<FundingTransaction>, FaucetError>
  /** The faucet's own health: the funder account is readable on the latest state. */
  readonly healthy: Effect.Effect<boolean>
  /** Waits until the delegation at boot is done (or skipped, or failed: then the root funds). */
  readonly ready: Effect.Effect<void>
  /**
   * Checks the delegation again on the latest state and redoes it where the chain no longer has it
   * (after a revert to before it, or a reset to genesis); waits until it is done. Fundings wait too.
   */
  readonly redelegate: Effect.Effect<void>
}

const ONE = addressFromNumber(1)
const CORE_RESOURCES = addressFromNumber(0xa550c18)

/** `0x1::<module>::<function>(args…)` signed by `signer` as `sender`, with the faucet's gas settings. */
const frameworkCall = (
  config: Required<FaucetConfigShape>,
  sender: AccountAddress,
  signer: Ed25519Signer,
  sequenceNumber: bigint,
  nowSecs: bigint,
  fn: string,
  args: ReadonlyArray<Uint8Array>,
  module = "aptos_coin"
): SignedTransaction => {
  const raw: RawTransaction = {
    sender,
    sequenceNumber,
    payload: {
      _tag: "EntryFunction",
      entryFunction: { module: { address: ONE, name: module }, function: fn, typeArgs: [], args }
    },
    maxGasAmount: config.maxGasAmount,
    gasUnitPrice: config.gasUnitPrice,
    expirationTimestampSecs: nowSecs + BigInt(config.expirationSecs),
    chainId: config.chainId
  }
  const signature = signer.sign(signingMessage(raw))
  return { rawTransaction: raw, authenticator: { _tag: "Ed25519", publicKey: signer.publicKey, signature } }
}

/** What the root mints to the delegate at boot (the reference's figure): its gas for ever. */
const DELEGATE_FUNDING = 100_000_000_000n

/** BCS(StateKey) of `0x1::aptos_coin::MintCapStore` at `address`: present once the capability is claimed. */
const mintCapStoreKey = (address: AccountAddress): Uint8Array =>
  Bcs.encode(stateKeyCodec, {
    _tag: "AccessPath",
    address,
    path: { _tag: "Resource", struct: { address: ONE, module: "aptos_coin", name: "MintCapStore", typeArgs: [] } }
  })

const submitErrorMessage = (e: SubmitError): string =>
  e._tag === "InvalidTransaction" ? `Invalid transaction: Type: Validation Code: ${e.statusName}` : e.message

export class Faucet extends Context.Service<Faucet, FaucetService>()("movenode/chain/Faucet") {
  static readonly layer = (options: FaucetConfigShape): Layer.Layer<Faucet, never, Mempool | Ledger | ChainEvents> =>
    Layer.effect(
      Faucet,
      Effect.gen(function* () {
        const mempool = yield* Mempool
        const ledger = yield* Ledger
        const chainClock = yield* Effect.serviceOption(ChainClockService)
        const events = yield* ChainEvents
        const config: Required<FaucetConfigShape> = {
          rootPrivateKey: options.rootPrivateKey,
          funder: options.funder ?? CORE_RESOURCES,
          chainId: options.chainId,
          maxGasAmount: options.maxGasAmount ?? 500_000n,
          gasUnitPrice: options.gasUnitPrice ?? 100n,
          expirationSecs: options.expirationSecs ?? 30,
          maxInFlight: options.maxInFlight ?? 50,
          delegate: options.delegate ?? new Uint8Array(0),
          provisioned: options.provisioned ?? new Uint8Array(0)
        }
        const producer = yield* Effect.serviceOption(BlockProducer)
        const rootSigner = ed25519Signer(config.rootPrivateKey)
        /** Who funds: the root until a delegation at boot hands the mint capability to the delegate. */
        let funder = config.funder
        let signer = rootSigner
        let funderKey = toHex(funder)
        /**
         * Who funds, decided on the first funding where a `provisioned` key is given: "root" (the
         * root key signs for `@core_resources`) or "provisioned" (it does not: provisionedFunder.ts).
         */
        let mode: "root" | "provisioned" | undefined = config.provisioned.length === 0 ? "root" : undefined
        const provisionedSigner = config.provisioned.length === 0 ? undefined : ed25519Signer(config.provisioned)
        const provisionPermit = Semaphore.makeUnsafe(1)
        /** Completed once the delegation is done (or skipped, or failed: the root funds); one per round. */
        let delegated = yield* Deferred.make<void>()
        const scope = yield* Effect.scope
        const slots = Semaphore.makeUnsafe(config.maxInFlight)
        /** Faucet transactions in the pool: each holds a slot until a block commits, discards or drops it. */
        const inFlight = new Set<string>()
        let next: bigint | undefined

        yield* Effect.forkScoped(
          Effect.scoped(
            Effect.gen(function* () {
              const take = yield* events.poolSubscription
              for (;;) {
                const event = yield* take
                let freed = 0
                if (event._tag === "Rewound") {
                  // The pool was emptied and the funder's sequence number went back with the ledger.
                  freed = inFlight.size
                  inFlight.clear()
                  next = undefined
                  if (freed > 0) yield* Semaphore.release(slots, freed)
                  continue
                }
                if (event._tag === "BlockCommitted") {
                  for (const c of event.committed) if (inFlight.delete(c.hashKey)) freed++
                  for (const d of event.discarded)
                    if (inFlight.delete(d.hashKey)) {
                      freed++
                      next = undefined // its number was not consumed: read the chain again
                    }
                }
                // Expired, or dropped by the controls: its number was not consumed either.
                for (const h of event.dropped)
                  if (inFlight.delete(h)) {
                    freed++
                    next = undefined
                  }
                if (freed > 0) yield* Semaphore.release(slots, freed)
              }
            })
          )
        )

        const latest = Effect.flatMap(ledger.ledgerInfo, (info) => ledger.stateAt(info.ledgerVersion))
        const apiError = (message: string) => new FaucetError({ code: "AptosApiError", message, txnHashes: [] })

        // The chain's clock (ahead of the wall clock after time travel, the test controls'
        // ChainClock), so expiries built from it are in the chain's future; the wall clock without it.
        const nowSecs = Effect.gen(function* () {
          const wallUsec = BigInt(yield* Clock.currentTimeMillis) * 1000n
          if (Option.isNone(chainClock)) return wallUsec / 1_000_000n
          const info = yield* Effect.orElseSucceed(ledger.ledgerInfo, () => ({ ledgerTimestampUsec: 0n }))
          return chainClock.value.peek(info.ledgerTimestampUsec, wallUsec) / 1_000_000n
        })

        /** Submits `transactions` (made at once) and waits until a block committed each successfully. */
        const submitAndCommit = (transactions: ReadonlyArray<SignedTransaction>) =>
          Effect.scoped(
            Effect.gen(function* () {
              const take = yield* events.poolSubscription
              const waiting = new Set<string>()
              for (const signed of transactions) {
                const entry = yield* mempool.submit(signed, Bcs.encode(signedTransactionCodec, signed))
                waiting.add(entry.hashKey)
                mempool.want(entry.hashKey)
              }
              while (waiting.size > 0) {
                const event = yield* take
                if (event._tag === "Rewound") return yield* Effect.fail("the chain went back while funding")
                if (event._tag === "BlockCommitted") for (const c of event.committed) waiting.delete(c.hashKey)
                const discarded = event._tag === "BlockCommitted" ? event.discarded.map((d) => d.hashKey) : []
                const lost = [...discarded, ...event.dropped].filter((h) => waiting.has(h))
                if (lost.length > 0) return yield* Effect.fail(`transaction ${lost[0]} was not committed`)
              }
            })
          )

        const delegate = (key: Uint8Array) =>
          Effect.gen(function* () {
            const delegateSigner = ed25519Signer(key)
            const delegateAddress = ed25519AuthKey(delegateSigner.publicKey) // an address is its 32 bytes
            const claimed = (state: { get: (k: Uint8Array) => Uint8Array | undefined }) =>
              state.get(mintCapStoreKey(delegateAddress)) !== undefined
            if (!claimed(yield* latest)) {
              const rootNext = mempool.nextSequenceNumber(
                toHex(config.funder),
                accountSequenceNumber(yield* latest, config.funder)
              )
              const now = yield* nowSecs
              yield* submitAndCommit([
                frameworkCall(config, config.funder, rootSigner, rootNext, now, "mint", [
                  delegateAddress,
                  Bcs.encode(Bcs.u64, DELEGATE_FUNDING)
                ]),
                frameworkCall(config, config.funder, rootSigner, rootNext + 1n, now, "delegate_mint_capability", [
                  delegateAddress
                ])
              ])
              const delegateNext = accountSequenceNumber(yield* latest, delegateAddress)
              yield* submitAndCommit([
                frameworkCall(
                  config,
                  delegateAddress,
                  delegateSigner,
                  delegateNext,
                  yield* nowSecs,
                  "claim_mint_capability",
                  []
                )
              ])
              if (!claimed(yield* latest)) return yield* Effect.fail("the claim left no MintCapStore")
            }
            funder = delegateAddress
            signer = delegateSigner
            funderKey = toHex(funder)
            next = undefined
          })

        /**
         * Where the root key is not ours: the provisioned account funds, given (by state edits, one
         * funding at a time) its account and the APT this funding takes when it lacks them.
         */
        const provision = (amount: bigint) =>
          Effect.gen(function* () {
            if (mode === "root") return
            const state = yield* Effect.mapError(latest, (e) => apiError(`cannot read the latest state: ${e._tag}`))
            if (mode === undefined) mode = rootKeyHeld(state, rootSigner.publicKey) ? "root" : "provisioned"
            if (mode === "root" || provisionedSigner === undefined) return
            const address = ed25519AuthKey(provisionedSigner.publicKey)
            if (signer !== provisionedSigner) {
              funder = address
              signer = provisionedSigner
              funderKey = toHex(funder)
              next = undefined
            }
            const edits = provisionEdits(state, address, provisionedSigner.publicKey, amount)
            const problem = (message: string) =>
              new FaucetError({ code: "FunderAccountProblem", message, txnHashes: [] })
            if (typeof edits === "string") return yield* problem(edits)
            if (edits.length === 0) return
            if (Option.isNone(producer))
              return yield* problem("the faucet's funder needs APT and this chain takes no state edits")
            yield* Effect.mapError(producer.value.commitChanges(writeSetOf(state, edits)), (e) =>
              problem(`cannot give the faucet's funder its APT: ${e.message}`)
            )
          }).pipe(Semaphore.withPermit(provisionPermit))

        /** A round of delegation: the root funds until it is done (a round on a chain that has it sends nothing). */
        const startDelegation = Effect.gen(function* () {
          const done = yield* Deferred.make<void>()
          delegated = done
          funder = config.funder
          signer = rootSigner
          funderKey = toHex(funder)
          next = undefined
          if (config.delegate.length === 0) return yield* Deferred.succeed(done, undefined)
          yield* Effect.forkIn(
            delegate(config.delegate).pipe(
              // A chain that makes no block in time (mined by hand) or refuses the delegation: the root funds.
              Effect.timeout("30 seconds"),
              Effect.catchCause((cause) =>
                Effect.logWarning("faucet: mint delegation failed; the root account funds", cause)
              ),
              Effect.ensuring(Deferred.succeed(done, undefined))
            ),
            scope
          )
        })
        yield* startDelegation
        const ready = Effect.suspend(() => Deferred.await(delegated))

        const submitOnce = (receiver: AccountAddress, amount: bigint, fresh: boolean) =>
          Effect.gen(function* () {
            if (next === undefined || fresh) {
              // After the chain's number come the faucet's transactions still pooled.
              const state = yield* Effect.mapError(latest, (e) => apiError(`cannot read the funder account: ${e._tag}`))
              next = mempool.nextSequenceNumber(funderKey, accountSequenceNumber(state, funder))
            }
            const sequenceNumber = next
            next = sequenceNumber + 1n
            // The root mints; a provisioned funder transfers (creating the receiver's account as on the source).
            const signed =
              mode === "provisioned"
                ? frameworkCall(
                    config,
                    funder,
                    signer,
                    sequenceNumber,
                    yield* nowSecs,
                    "transfer",
                    [receiver, Bcs.encode(Bcs.u64, amount)],
                    "aptos_account"
                  )
                : frameworkCall(config, funder, signer, sequenceNumber, yield* nowSecs, "mint", [
                    receiver,
                    Bcs.encode(Bcs.u64, amount)
                  ])
            const entry = yield* Effect.mapError(
              mempool.submit(signed, Bcs.encode(signedTransactionCodec, signed)),
              (e) => {
                next = undefined
                return e
              }
            )
            return { entry, signed }
          })

        const fund = (receiver: AccountAddress, requested: bigint | undefined) =>
          Effect.gen(function* () {
            const amount = requested ?? 0n
            if (amount === 0n) {
              const state = yield* Effect.mapError(latest, (e) => apiError(`cannot read the latest state: ${e._tag}`))
              if (state.get(accountResourceKey(receiver)) !== undefined)
                return yield* new FaucetError({
                  code: "InvalidRequest",
                  message: `Account ${addressToShortString(receiver)} already exists and amount asked for is 0`,
                  txnHashes: []
                })
            }
            yield* ready
            yield* provision(amount)
            yield* Semaphore.take(slots, 1)
            const submitted = yield* submitOnce(receiver, amount, false).pipe(
              // A stale sequence number (someone else used the root account): once more from the chain's.
              Effect.catchIf(
                (e) =>
                  e._tag === "SequenceNumberTooOld" ||
                  e._tag === "InvalidTransactionUpdate" ||
                  (e._tag === "InvalidTransaction" && e.statusName === "SEQUENCE_NUMBER_TOO_OLD"),
                () => submitOnce(receiver, amount, true)
              ),
              Effect.mapError((e) =>
                e._tag === "FaucetError"
                  ? e
                  : new FaucetError({
                      code:
                        e._tag === "InvalidTransaction"
                          ? "TransactionFailed"
                          : e._tag === "MempoolFull"
                            ? "ServerOverloaded"
                            : "AptosApiError",
                      message: submitErrorMessage(e),
                      txnHashes: []
                    })
              ),
              Effect.tapError(() => Semaphore.release(slots, 1))
            )
            inFlight.add(submitted.entry.hashKey)
            return [{ hash: submitted.entry.hash, transaction: submitted.signed }]
          })

        return Faucet.of({
          get funder() {
            return funder
          },
          fund,
          healthy: Effect.match(latest, {
            onFailure: () => false,
            // A provisioned funder is given what it lacks on its first funding.
            onSuccess: (state) =>
              mode === "provisioned" ||
              (provisionedSigner !== undefined && mode === undefined && !rootKeyHeld(state, rootSigner.publicKey)) ||
              state.get(accountResourceKey(funder)) !== undefined
          }),
          ready,
          redelegate: Effect.andThen(startDelegation, ready)
        })
      })
    )
}
