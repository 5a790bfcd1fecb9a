import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { toHex } from "../bcs/index.js"
import { type AccountAddress, addressToShortString } from "../domain/AccountAddress.js"
import { ApiErrors, type ApiError } from "../domain/ApiError.js"
import { isValidIdentifier } from "../domain/Identifier.js"
import { Ledger } from "../ledger/Ledger.js"
import { moduleAbiJsonOf } from "./moduleAbiJsonOf.js"
import { forgetOnRewind } from "./forgetOnRewind.js"
import { LruCache } from "./LruCache.js"
import { cachedStateAtLedgerVersion } from "./LedgerVersion.js"
import type { WithLedger } from "./WithLedger.js"
import { NodeConfig } from "./NodeConfig.js"
import { moduleKey } from "./stateKeys.js"
import { quoteString } from "../domain/boundedText.js"

export interface ModuleAnswer {
  readonly bytecode: Uint8Array
  /** The ABI as its JSON text, computed once per stored module version and reused. */
  readonly abiJson: string
}

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
      /**
       * Per `address::name`: its state key (so a hit builds no BCS) and the last answer with the
       * ledger version it was read at. The state at a version never changes, so a request at that
       * version again (nearly every request under load reads the same head) is answered from here
       * without a store read; pruning is checked before this is consulted.
       */
      interface Entry {
        readonly keyBytes: Uint8Array
        version: bigint | undefined
        answer: ModuleAnswer | undefined
      }
      const entries = new LruCache<string, Entry>(config.moduleAbiCacheSize)
      const stateAt = cachedStateAtLedgerVersion(ledger)
      const rewound = forgetOnRewind(ledger, () => {
        entries.clear()
        answers.clear()
      })

      const module = (
        address: AccountAddress,
        name: string,
        ledgerVersion: bigint | undefined
      ): Effect.Effect<WithLedger<ModuleAnswer>, ApiError> => {
        // The HTTP layer validates the path too; checked here so no caller can build a bogus key.
        if (!isValidIdentifier(name))
          return Effect.fail(
            ApiErrors.webFramework(400, `failed to parse path \`module_name\`: invalid identifier ${quoteString(name)}`)
          )
        return Effect.flatMap(stateAt(ledgerVersion), ({ ledger: info, version, state }) => {
          const id = `${toHex(address)}::${name}`
          rewound()
          let entry = entries.get(id)
          if (entry === undefined) {
            entry = { keyBytes: moduleKey(address, name), version: undefined, answer: undefined }
            entries.set(id, entry)
          }
          if (entry.version !== version) {
            const keyBytes = entry.keyBytes
            // The stored version first (no copy of the bytes): a hit needs nothing else.
            const storedVersion =
              state.versionOf !== undefined ? state.versionOf(keyBytes) : state.getVersioned(keyBytes)?.version
            let read = storedVersion === undefined ? undefined : answers.get(`${id}@${storedVersion}`)
            if (read === undefined) {
              const found = state.getVersioned(keyBytes)
              if (found !== undefined) {
                read = { bytecode: found.value, abiJson: moduleAbiJsonOf(found.value) }
                answers.set(`${id}@${found.version}`, read)
              }
            }
            entry.version = version
            entry.answer = read
          }
          const answer = entry.answer
          return answer === undefined
            ? Effect.fail(ApiErrors.moduleNotFound(addressToShortString(address), name, version, info))
            : Effect.succeed({ ledger: info, value: answer })
        })
      }

      return Modules.of({ module, cachedAbis: Effect.sync(() => answers.size) })
    })
  )
}
