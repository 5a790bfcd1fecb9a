/**
 * The history the Explorer test browses (`makeHistory.ts`), checked over REST alone so it runs
 * everywhere (no Explorer build, no browser): the hand-assembled fungible-asset module publishes,
 * mints its supply to the publisher and moves by the framework's transfer; the APT transfer and the
 * `0x4::aptos_token` collection and tokens land where the Explorer will look for them.
 */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { MiningMode } from "../../src/chain/MiningMode.js"
import { LocalChain } from "../../src/LocalChain.js"
import { FA_COIN_DECIMALS, FA_COIN_INITIAL_SUPPLY, FA_COIN_NAME, FA_COIN_SYMBOL } from "./faCoinModule.js"
import { APT_TRANSFER, COLLECTION_NAME, makeHistory, MNC_TRANSFER, sdkFor, TOKEN_NAMES } from "./makeHistory.js"

describe("the Explorer test's chain history", () => {
  it("has an APT transfer, a hand-made fungible asset moved once and an aptos_token collection", async () => {
    await Effect.runPromise(
      Effect.scoped(
        Effect.flatMap(
          LocalChain.spawn({ accounts: 0, graphql: { host: "127.0.0.1", port: 0 }, mining: MiningMode.instant(50) }),
          (chain) =>
            Effect.promise(async () => {
              const aptos = sdkFor(chain)
              const h = await makeHistory(chain)
              expect(await aptos.getAccountAPTAmount({ accountAddress: h.bob })).toBe(
                5_000_000_000 + Number(APT_TRANSFER)
              )

              const metadata = h.faMetadata.toString()
              const view = (fn: string, args: string[], typeArgs: string[] = []) =>
                aptos.view({
                  payload: {
                    function: fn as `${string}::${string}::${string}`,
                    typeArguments: typeArgs as [],
                    functionArguments: args
                  }
                })
              expect(await view("0x1::fungible_asset::name", [metadata], ["0x1::fungible_asset::Metadata"])).toEqual([
                FA_COIN_NAME
              ])
              expect(await view("0x1::fungible_asset::symbol", [metadata], ["0x1::fungible_asset::Metadata"])).toEqual([
                FA_COIN_SYMBOL
              ])
              expect(
                await view("0x1::fungible_asset::decimals", [metadata], ["0x1::fungible_asset::Metadata"])
              ).toEqual([FA_COIN_DECIMALS])
              const balance = async (owner: string) =>
                BigInt(
                  (
                    await view(
                      "0x1::primary_fungible_store::balance",
                      [owner, metadata],
                      ["0x1::fungible_asset::Metadata"]
                    )
                  )[0] as string
                )
              expect(await balance(h.alice.toString())).toBe(FA_COIN_INITIAL_SUPPLY - MNC_TRANSFER)
              expect(await balance(h.bob.toString())).toBe(MNC_TRANSFER)

              // The collection object carries its name; the first token now belongs to bob.
              const collection = await aptos.getAccountResource<{ name: string; creator: string }>({
                accountAddress: h.collection,
                resourceType: "0x4::collection::Collection"
              })
              expect(collection.name).toBe(COLLECTION_NAME)
              expect(h.tokens).toHaveLength(TOKEN_NAMES.length)
              const owner = async (token: (typeof h.tokens)[number]) =>
                (
                  await aptos.getAccountResource<{ owner: string }>({
                    accountAddress: token,
                    resourceType: "0x1::object::ObjectCore"
                  })
                ).owner
              expect(await owner(h.tokens[0]!)).toBe(h.bob.toStringLong())
              expect(await owner(h.tokens[1]!)).toBe(h.alice.toStringLong())
              // (The framework keeps the name in TokenIdentifiers; Token.name stays empty.)
              const ids = await aptos.getAccountResource<{ name: { value: string } }>({
                accountAddress: h.tokens[1]!,
                resourceType: "0x4::token::TokenIdentifiers"
              })
              expect(ids.name.value).toBe(TOKEN_NAMES[1])
            })
        )
      )
    )
  })
})
