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
      // The whole answer is kept per stored module version: a hit hands back the same object (the
      // same `abiJson` string, whose hash V8 keeps), so the HTTP layer's body cache hits cheaply.
      const answers = new LruCache<string, ModuleAnswer>(config.moduleAbiCacheSize)
      // The state key of `address::name`, so a hit builds no BCS.
      const keys = new LruCache<string, Uint8Array>(config.moduleAbiCacheSize)

      const module = (
        address: AccountAddress,
        name: string,
        ledgerVersion: bigint | undefined
      ): Effect.Effect<WithLedger<ModuleAnswer>, ApiError> => {
        // The HTTP layer validates the path too; checked here so no caller can build a bogus key.
        if (!isValidIdentifier(name))
          return Effect.fail(
            ApiErrors.webFramework(
              400,
              `failed to parse path \`module_name\`: invalid identifier ${JSON.stringify(name)}`
            )
          )
        return Effect.flatMap(stateAtLedgerVersion(ledger, ledgerVersion), ({ ledger: info, version, state }) => {
          const id = `${toHex(address)}::${name}`
          let keyBytes = keys.get(id)
          if (keyBytes === undefined) {
            keyBytes = moduleKey(address, name)
            keys.set(id, keyBytes)
          }
          // The stored version first (no copy of the bytes): a hit needs nothing else.
          const storedVersion =
            state.versionOf !== undefined ? state.versionOf(keyBytes) : state.getVersioned(keyBytes)?.version
          const cached = storedVersion === undefined ? undefined : answers.get(`${id}@${storedVersion}`)
          if (cached !== undefined) return Effect.succeed({ ledger: info, value: cached })
          const found = state.getVersioned(keyBytes)
          if (found === undefined)
            return Effect.fail(ApiErrors.moduleNotFound(addressToShortString(address), name, version, info))
          const answer: ModuleAnswer = { bytecode: found.value, abiJson: moduleAbiJsonOf(found.value) }
          answers.set(`${id}@${found.version}`, answer)
          return Effect.succeed({ ledger: info, value: answer })
        })
      }

      return Modules.of({ module, cachedAbis: Effect.sync(() => answers.size) })
    })
  )
}
