/**
 * stake_processor on a local chain: a delegation pool created by one account and staked in by two
 * delegators (one of them twice, one unlocking part); the activities are the events with their
 * amounts, the pool's balance follows its DelegationPool resource, each delegator's active shares
 * are their table item scaled down, and the genesis validator's operator and voter are listed.
 */
import { Account, Ed25519PrivateKey } from "@aptos-labs/ts-sdk"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { scaledDown, stakeProcessor } from "../../../src/indexer/processors/stake.js"
import { applyWrites, rowsIn, type Tables } from "./support/applyWrites.js"
import { runEntry, withIndexedChain } from "./support/indexedChain.js"

const noTables = (): Tables => new Map()

const APT = 100_000_000

describe("stake_processor", () => {
  it("scaledDown: exact decimals for powers of ten, the quotient otherwise", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 1n << 128n }), fc.integer({ min: 0, max: 20 }), (n, places) => {
        const d = 10n ** BigInt(places)
        const text = scaledDown(n, d)
        expect(text).toMatch(/^\d+(\.\d*[1-9])?$/)
        const [whole, fraction = ""] = text.split(".")
        expect(BigInt(whole!) * d + (fraction === "" ? 0n : BigInt(fraction.padEnd(places, "0")))).toBe(n)
      })
    )
    expect(scaledDown(7n, 3n)).toBe("2")
  })

  it("a delegation pool's activities, balance and delegators", async () => {
    await withIndexedChain(async ({ chain, aptos, transactions }) => {
      const [owner, alice, bob] = chain.accounts.map((a) =>
        Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(a.privateKey) })
      )
      const run = (signer: Account, fn: `${string}::${string}::${string}`, args: unknown[]) =>
        runEntry(aptos, signer, fn, args)
      const created = await run(owner!, "0x1::delegation_pool::initialize_delegation_pool", [1000, "0x01"])
      const poolAddress = (created.changes as any[]).find(
        (c) => c.data?.type === "0x1::delegation_pool::DelegationPool"
      ).address
      expect(poolAddress).toBeDefined()
      await run(alice!, "0x1::delegation_pool::add_stake", [poolAddress, 20 * APT])
      await run(bob!, "0x1::delegation_pool::add_stake", [poolAddress, 30 * APT])
      await run(alice!, "0x1::delegation_pool::add_stake", [poolAddress, 15 * APT])
      const unlocked = await run(bob!, "0x1::delegation_pool::unlock", [poolAddress, 10 * APT])

      const batch = await transactions()
      const tables = applyWrites(noTables(), stakeProcessor.process(batch))
      const long = (a: string) => `0x${a.slice(2).padStart(64, "0")}`
      const poolLong = long(poolAddress)
      const acts = rowsIn(tables, "delegated_staking_activities").filter((a) => a.pool_address === poolLong)
      const adds = acts.filter(
        (a) =>
          a.event_type === "0x1::delegation_pool::AddStake" || a.event_type === "0x1::delegation_pool::AddStakeEvent"
      )
      expect(adds.map((a) => [a.delegator_address, a.amount])).toEqual([
        [alice!.accountAddress.toStringLong(), BigInt(20 * APT)],
        [bob!.accountAddress.toStringLong(), BigInt(30 * APT)],
        [alice!.accountAddress.toStringLong(), BigInt(15 * APT)]
      ])
      const unlocks = acts.filter((a) => String(a.event_type).startsWith("0x1::delegation_pool::UnlockStake"))
      expect(unlocks.map((a) => [a.delegator_address, a.transaction_version])).toEqual([
        [bob!.accountAddress.toStringLong(), BigInt(unlocked.version)]
      ])
      expect(rowsIn(tables, "delegated_staking_pools")).toEqual([
        { staking_pool_address: poolLong, first_transaction_version: BigInt(created.version) }
      ])
      // The pool's balance as its resource says, at the last transaction that wrote it.
      const resource = await aptos.getAccountResource<any>({
        accountAddress: poolAddress,
        resourceType: "0x1::delegation_pool::DelegationPool"
      })
      const current = tables.get("current_delegated_staking_pool_balances")!.get(poolLong)!
      expect(current).toMatchObject({
        total_coins: BigInt(resource.active_shares.total_coins),
        total_shares: scaledDown(
          BigInt(resource.active_shares.total_shares),
          BigInt(resource.active_shares.scaling_factor)
        ),
        operator_commission_percentage: 1000n,
        active_table_handle: long(resource.active_shares.shares.inner.handle),
        last_transaction_version: BigInt(unlocked.version)
      })
      // Each delegator's active shares: their item of the shares table, scaled down.
      const shares = rowsIn(tables, "current_delegator_balances").filter((b) => b.pool_address === poolLong)
      for (const who of [alice!, bob!]) {
        const item = await aptos.getTableItem<string>({
          handle: resource.active_shares.shares.inner.handle,
          data: { key_type: "address", value_type: "u128", key: who.accountAddress.toString() }
        })
        expect(shares.find((s) => s.delegator_address === who.accountAddress.toStringLong())).toMatchObject({
          pool_type: "active_shares",
          shares: scaledDown(BigInt(item), BigInt(resource.active_shares.scaling_factor))
        })
      }
      // Active delegators with shares (what num_active_delegator_per_pool counts): alice and bob.
      expect(
        shares.filter((s) => (s.shares as bigint) > 0n && s.delegator_address !== "0x" + "0".repeat(64)).length
      ).toBeGreaterThanOrEqual(2)
      // The genesis validator's stake pool: operator and voter.
      expect(rowsIn(tables, "current_staking_pool_voter").length).toBeGreaterThan(0)
    }, 3)
  }, 120_000)
})
