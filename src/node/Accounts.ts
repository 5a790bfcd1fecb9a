import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { BcsReader, BcsWriter } from "../bcs/index.js"
import { type AccountAddress, addressToLongString } from "../domain/AccountAddress.js"
import { ApiErrors, type ApiError } from "../domain/ApiError.js"
import type { LedgerInfo } from "../domain/LedgerInfo.js"
import { FeatureFlag, Features } from "../execution/Features.js"
import { Ledger, type StateReader } from "../ledger/Ledger.js"
import { cachedStateAtLedgerVersion } from "./LedgerVersion.js"
import { forgetOnRewind } from "./forgetOnRewind.js"
import { LruCache } from "./LruCache.js"
import { ReadErrors } from "./readErrors.js"
import { frameworkStruct, resourceKey } from "./stateKeys.js"
import type { WithLedger } from "./WithLedger.js"

/** `GET /v1/accounts/{address}`'s answer: `AccountData` as JSON text and the BCS body. */
export interface AccountAnswer {
  readonly sequenceNumber: bigint
  readonly authenticationKey: Uint8Array
  /** `{"sequence_number": "…", "authentication_key": "0x…"}`. */
  readonly json: string
  /** The stored `0x1::account::Account` bytes, or the BCS of the stateless default. */
  readonly bcs: Uint8Array
}

export interface AccountsService {
  readonly account: (
    address: AccountAddress,
    ledgerVersion: bigint | undefined
  ) => Effect.Effect<WithLedger<AccountAnswer>, ApiError>
  /**
   * The account's sequence number at `state` (the stateless default's 0 when flag 91 is on and no
   * `Account` exists), or undefined when there is no account. For the account transactions endpoint.
   */
  readonly sequenceNumberAt: (state: StateReader, address: AccountAddress) => bigint | undefined
}

const ACCOUNT = frameworkStruct("account", "Account")
const FEATURES_KEY = resourceKey(
  frameworkStruct("features", "Features").address,
  frameworkStruct("features", "Features")
)

const answerOf = (authenticationKey: Uint8Array, sequenceNumber: bigint, bcs: Uint8Array): AccountAnswer => ({
  sequenceNumber,
  authenticationKey,
  json: `{"sequence_number":"${sequenceNumber}","authentication_key":"0x${Buffer.from(authenticationKey).toString("hex")}"}`,
  bcs
})

/** The first two fields of `0x1::account::Account`: `authentication_key: vector<u8>`, `sequence_number: u64`. */
const decodeAccount = (bytes: Uint8Array): AccountAnswer | undefined => {
  try {
    const r = new BcsReader(bytes)
    const authenticationKey = r.bytesWithLength()
    return answerOf(authenticationKey, r.u64(), bytes)
  } catch {
    return undefined
  }
}

/**
 * The reference's `AccountResource::new_stateless`: authentication key = the address, sequence
 * number 0, GUID creation number 2, the coin-register and key-rotation event handles at creation
 * numbers 0 and 1 (count 0), no capability offers. Its BCS is the BCS answer for such an account.
 */
const statelessAccount = (address: AccountAddress): AccountAnswer => {
  const w = new BcsWriter(160)
  w.bytesWithLength(address).u64(0n).u64(2n)
  w.u64(0n).u64(0n).fixed(address)
  w.u64(0n).u64(1n).fixed(address)
  w.u8(0).u8(0)
  return answerOf(address, 0n, w.toBytes())
}

/** Whether flag 91 (DEFAULT_ACCOUNT_RESOURCE) is on in `state`: every address then has an account. */
const defaultAccountResource = (state: StateReader): boolean => {
  const bytes = state.get(FEATURES_KEY)
  if (bytes === undefined) return false
  try {
    return new Features(new BcsReader(bytes).bytesWithLength()).isEnabled(FeatureFlag.DEFAULT_ACCOUNT_RESOURCE)
  } catch {
    return false
  }
}

/** How many addresses' answers are kept. */
const ENTRIES = 4096

/**
 * `GET /v1/accounts/{address}` (local-chain.md §2.1): the `0x1::account::Account` resource's
 * sequence number and authentication key at `ledger_version`; without one, the stateless default
 * (sequence number 0, the address as authentication key) when the framework's flag 91
 * DEFAULT_ACCOUNT_RESOURCE is on, else 404 `account_not_found`. An address's last answer is kept
 * with the version it was read at and the version that wrote the resource, so reads of an
 * unchanged account at later versions reuse it (the state at a version never changes).
 */
export class Accounts extends Context.Service<Accounts, AccountsService>()("movenode/node/Accounts") {
  static readonly layer = Layer.effect(
    Accounts,
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const stateAt = cachedStateAtLedgerVersion(ledger)

      interface Entry {
        readonly key: Uint8Array
        /** The ledger version last read at, and what the answer was there. */
        version: bigint | undefined
        answer: AccountAnswer | undefined
        /** The version that wrote the Account resource the answer came from (undefined: none). */
        storedVersion: bigint | undefined
      }
      const entries = new LruCache<string, Entry>(ENTRIES)
      const rewound = forgetOnRewind(ledger, () => entries.clear())

      const read = (state: StateReader, address: AccountAddress, entry: Entry): AccountAnswer | undefined => {
        const stored =
          state.versionOf !== undefined ? state.versionOf(entry.key) : state.getVersioned(entry.key)?.version
        if (stored !== undefined && stored === entry.storedVersion && entry.answer !== undefined) return entry.answer
        entry.storedVersion = stored
        if (stored === undefined) return defaultAccountResource(state) ? statelessAccount(address) : undefined
        const bytes = state.get(entry.key)
        return bytes === undefined ? undefined : decodeAccount(bytes)
      }

      const answerAt = (
        info: LedgerInfo,
        version: bigint,
        state: StateReader,
        address: AccountAddress
      ): Effect.Effect<WithLedger<AccountAnswer>, ApiError> => {
        const id = addressToLongString(address)
        rewound()
        let entry = entries.get(id)
        if (entry === undefined) {
          entry = {
            key: resourceKey(address, ACCOUNT),
            version: undefined,
            answer: undefined,
            storedVersion: undefined
          }
          entries.set(id, entry)
        }
        if (entry.version !== version) {
          const answer = read(state, address, entry)
          if (answer === undefined && entry.storedVersion !== undefined)
            return Effect.fail(ApiErrors.internal("Failed to deserialize the account resource", info))
          entry.version = version
          entry.answer = answer
        }
        const answer = entry.answer
        return answer === undefined
          ? Effect.fail(ReadErrors.accountNotFound(address, version, info))
          : Effect.succeed({ ledger: info, value: answer })
      }

      const account = (address: AccountAddress, ledgerVersion: bigint | undefined) =>
        Effect.flatMap(stateAt(ledgerVersion), ({ ledger: info, version, state }) =>
          answerAt(info, version, state, address)
        )

      const sequenceNumberAt = (state: StateReader, address: AccountAddress): bigint | undefined => {
        const bytes = state.get(resourceKey(address, ACCOUNT))
        if (bytes === undefined) return defaultAccountResource(state) ? 0n : undefined
        return decodeAccount(bytes)?.sequenceNumber
      }

      return Accounts.of({ account, sequenceNumberAt })
    })
  )
}
