import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { toHex } from "../bcs/index.js"
import { type AccountAddress, addressToShortString } from "../domain/AccountAddress.js"
import { ApiErrors, type ApiError } from "../domain/ApiError.js"
import { isValidIdentifier } from "../domain/Identifier.js"
import { Ledger } from "../ledger/Ledger.js"
import { moduleAbiJsonOf } from "./moduleAbiJsonOf.js"
import { LruCache } from "./LruCache.js"
import { stateAtLedgerVersion } from "./LedgerVersion.js"
import type { ModuleAnswer, WithLedger } from "./Node.js"
import { NodeConfig } from "./NodeConfig.js"
import { moduleKey } from "./stateKeys.js"

export interface ModulesService {
  readonly module: (
    address: AccountAddress,
    name: string,
    ledgerVersion: bigint | undefined
  ) => Effect.Effect<WithLedger<ModuleAnswer>, ApiError>
  /** How many ABIs are cached; for tests and metrics. */
  readonly cachedAbis: Effect.Effect<number>
}

/**
 * `/accounts/{address}/module/{module_name}` (contract item 3, aptos-api-behaviour.md §4): the
 * module's bytes at the version and its ABI JSON text. The ABI is computed once per stored module
 * version: the cache key is the address, the name and the version that wrote the module (from
 * `getVersioned`), so every read of an unchanged module, at any later version, is a hit, and an
 * upgrade is a new key. The account is not checked first: an unknown account is `module_not_found`.
 */
export class Modules extends Context.Service<Modules, ModulesService>()("movenode/node/Modules") {
  static readonly layer = Layer.effect(
    Modules,
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const config = yield* NodeConfig
      const abis = new LruCache<string, string>(config.moduleAbiCacheSize)

      const module = (address: AccountAddress, name: string, ledgerVersion: bigint | undefined) =>
        Effect.gen(function* () {
          // The HTTP layer validates the path too; checked here so no caller can build a bogus key.
          if (!isValidIdentifier(name))
            return yield* Effect.fail(
              ApiErrors.webFramework(400, `failed to parse path \`module_name\`: invalid identifier ${JSON.stringify(name)}`)
            )
          const { ledger: info, version, state } = yield* stateAtLedgerVersion(ledger, ledgerVersion)
          const found = state.getVersioned(moduleKey(address, name))
          if (found === undefined)
            return yield* Effect.fail(ApiErrors.moduleNotFound(addressToShortString(address), name, version, info))
          const key = `${toHex(address)}::${name}@${found.version}`
          const cached = abis.get(key)
          const abiJson = cached ?? moduleAbiJsonOf(found.value)
          if (cached === undefined) abis.set(key, abiJson)
          return { ledger: info, value: { bytecode: found.value, abiJson } }
        })

      return Modules.of({ module, cachedAbis: Effect.sync(() => abis.size) })
    })
  )
}
