import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Result from "effect/Result"
import { type AccountAddress, addressToLongString } from "../domain/AccountAddress.js"
import { ApiErrors, type ApiError } from "../domain/ApiError.js"
import { parseStructTag } from "../domain/TypeTagString.js"
import type { StructTag } from "../domain/TypeTag.js"
import { Ledger } from "../ledger/Ledger.js"
import { cachedStateAtLedgerVersion } from "./LedgerVersion.js"
import type { WithLedger } from "./WithLedger.js"
import { forgetOnRewind } from "./forgetOnRewind.js"
import { LruCache } from "./LruCache.js"
import { type BalanceKeys, balanceAt, coinBalanceKeys, fungibleAssetBalanceKeys } from "./readBalance.js"

/** `asset_type` path segment, already parsed: a coin type (struct tag string) or an FA metadata address. */
export type AssetType =
  | { readonly _tag: "Coin"; readonly structTag: string }
  | { readonly _tag: "FungibleAsset"; readonly metadata: AccountAddress }

export interface BalancesService {
  readonly balance: (
    address: AccountAddress,
    asset: AssetType,
    ledgerVersion: bigint | undefined
  ) => Effect.Effect<WithLedger<bigint>, ApiError>
}

/** Parses the coin type of an `asset_type` path segment; anything but a struct type is the client's error. */
export const parseCoinType = (text: string): Result.Result<StructTag, ApiError> => {
  const parsed = parseStructTag(text)
  return Result.isSuccess(parsed)
    ? Result.succeed(parsed.success)
    : Result.fail(ApiErrors.webFramework(400, `failed to parse path \`asset_type\`: ${parsed.failure.message}`))
}

/** How many (owner, asset) key sets (with their last balance) are kept. */
const KEYS_CACHE_SIZE = 4096

/**
 * `/accounts/{address}/balance/{asset_type}` (contract item 4, aptos-api-behaviour.md §5): a coin
 * type adds its `CoinStore<T>` and its paired fungible asset's primary store; a metadata address
 * reads the primary store only. Exact bigints throughout; no store is 0, never 404.
 */
export class Balances extends Context.Service<Balances, BalancesService>()("movenode/node/Balances") {
  static readonly layer = Layer.effect(
    Balances,
    Effect.gen(function* () {
      const ledger = yield* Ledger
      /**
       * (owner, asset) → the state keys to read (pure, so computed once: two sha3 hashes, key BCS)
       * and the last balance read with them with its version. The state at a version never changes,
       * so a request at the same version (under load nearly every request reads the same head) takes
       * the balance from here instead of two store reads and a resource-group decode. Pruning is
       * checked before this is consulted, so a pruned version still answers 410.
       */
      interface Entry {
        readonly keys: BalanceKeys | ApiError
        version: bigint | undefined
        value: bigint
      }
      const entries = new LruCache<string, Entry>(KEYS_CACHE_SIZE)
      const rewound = forgetOnRewind(ledger, () => entries.clear())
      const entryOf = (address: AccountAddress, asset: AssetType): Entry => {
        rewound()
        const id = `${addressToLongString(address)}/${asset._tag === "Coin" ? asset.structTag : addressToLongString(asset.metadata)}`
        let entry = entries.get(id)
        if (entry === undefined) {
          let keys: BalanceKeys | ApiError
          if (asset._tag === "Coin") {
            const coin = parseCoinType(asset.structTag)
            keys = Result.isSuccess(coin) ? coinBalanceKeys(address, coin.success) : coin.failure
          } else keys = fungibleAssetBalanceKeys(address, asset.metadata)
          entry = { keys, version: undefined, value: 0n }
          entries.set(id, entry)
        }
        return entry
      }

      const stateAt = cachedStateAtLedgerVersion(ledger)
      // No generator per request: the keys are cached, the state open is cached per ledger head.
      const balance = (
        address: AccountAddress,
        asset: AssetType,
        ledgerVersion: bigint | undefined
      ): Effect.Effect<WithLedger<bigint>, ApiError> =>
        Effect.suspend(() => {
          const entry = entryOf(address, asset)
          const keys = entry.keys
          if (!("primaryStoreGroup" in keys)) return Effect.fail(keys)
          return Effect.flatMap(stateAt(ledgerVersion), ({ ledger: info, version, state }) => {
            if (entry.version === version) return Effect.succeed({ ledger: info, value: entry.value })
            const value = balanceAt(state, keys)
            if (typeof value !== "bigint") return Effect.fail(ApiErrors.internal(value.message, info))
            entry.version = version
            entry.value = value
            return Effect.succeed({ ledger: info, value })
          })
        })

      return Balances.of({ balance })
    })
  )
}
