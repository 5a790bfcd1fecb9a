/**
 * `stake_processor`, delegation pools (pv2 `processors/stake/`, indexer.md §2.8): what
 * `getDelegatedStakingActivities`, `getNumberOfDelegators` (the `num_active_delegator_per_pool`
 * view over `current_delegator_balances`) and the Explorer's validator pages read.
 * - `delegated_staking_activities`: one row per `0x1::delegation_pool` add / unlock / withdraw /
 *   reactivate event and `0x1::stake` distribute-rewards event (delegator `""` for rewards), in user,
 *   block-metadata and validator transactions.
 * - `delegated_staking_pools`, `current_delegated_staking_pool_balances`,
 *   `delegated_staking_pool_balances`: from each written `0x1::delegation_pool::DelegationPool`
 *   (user transactions): total coins, total shares (scaled down), commission, share-table handles.
 * - `current_delegator_balances`: a delegator's active shares, from the writes (and deletions, 0)
 *   of a pool's active-shares table whose `DelegationPool` is written in the same transaction (where
 *   the reference falls back on its own tables for other items, these are skipped). Inactive shares
 *   (per lockup cycle) are not indexed.
 * - `current_staking_pool_voter`: operator and delegated voter of each written `0x1::stake::StakePool`.
 * Shares are divided by the pool's scaling factor as the reference does (a decimal: exact when the
 * factor is a power of ten, as the framework's 10^16 is; otherwise rounded down).
 */
import type { IndexerEvent, IndexerTransaction, JsonValue } from "./input/IndexerTransaction.js"
import type { Processor, Row, TableWrite } from "./Processor.js"
import { insertRows, standardAddress, upsertRows } from "./rows.js"
import { address, field, text, unsigned } from "./tokenV2/moveJson.js"

const ACTIVITY_AMOUNT: { readonly [type: string]: string } = {
  "0x1::delegation_pool::AddStakeEvent": "amount_added",
  "0x1::delegation_pool::AddStake": "amount_added",
  "0x1::delegation_pool::UnlockStakeEvent": "amount_unlocked",
  "0x1::delegation_pool::UnlockStake": "amount_unlocked",
  "0x1::delegation_pool::WithdrawStakeEvent": "amount_withdrawn",
  "0x1::delegation_pool::WithdrawStake": "amount_withdrawn",
  "0x1::delegation_pool::ReactivateStakeEvent": "amount_reactivated",
  "0x1::delegation_pool::ReactivateStake": "amount_reactivated",
  "0x1::stake::DistributeRewardsEvent": "rewards_amount",
  "0x1::stake::DistributeRewards": "rewards_amount"
}

const activityOf = (t: IndexerTransaction, e: IndexerEvent): Row | undefined => {
  const amountField = ACTIVITY_AMOUNT[e.type]
  if (amountField === undefined) return undefined
  const data = e.data()
  const pool = address(field(data, "pool_address"))
  const amount = unsigned(field(data, amountField))
  const rewards = amountField === "rewards_amount"
  const delegator = rewards ? "" : address(field(data, "delegator_address"))
  if (pool === undefined || amount === undefined || delegator === undefined) return undefined
  return {
    transaction_version: t.version,
    event_index: BigInt(e.index),
    delegator_address: delegator,
    pool_address: pool,
    event_type: e.type,
    amount
  }
}

/** `n / d` as a numeric column's text: exact for a power-of-ten `d`, else the integer quotient. */
export const scaledDown = (n: bigint, d: bigint): string => {
  const digits = d.toString()
  if (!/^10*$/.test(digits)) return (n / d).toString()
  const places = digits.length - 1
  if (places === 0) return n.toString()
  const whole = n / d
  const fraction = (n % d).toString().padStart(places, "0").replace(/0+$/, "")
  return fraction === "" ? whole.toString() : `${whole}.${fraction}`
}

interface PoolBalance {
  readonly pool: string
  readonly totalCoins: bigint
  readonly totalShares: string
  readonly scalingFactor: bigint
  readonly commission: bigint
  readonly activeHandle: string
  readonly inactiveHandle: string
}

/** A written `DelegationPool`'s balance; undefined for other resources or unreadable values. */
const poolBalanceOf = (poolAddress: string, data: JsonValue | undefined): PoolBalance | undefined => {
  const active = field(data, "active_shares")
  const totalCoins = unsigned(field(active, "total_coins"))
  const totalShares = unsigned(field(active, "total_shares"))
  const scalingFactor = unsigned(field(active, "scaling_factor"))
  const commission = unsigned(field(data, "operator_commission_percentage"))
  const activeHandle = text(field(field(field(active, "shares"), "inner"), "handle"))
  const inactiveHandle = text(field(field(data, "inactive_shares"), "handle"))
  if (
    totalCoins === undefined ||
    totalShares === undefined ||
    scalingFactor === undefined ||
    scalingFactor === 0n ||
    commission === undefined ||
    activeHandle === undefined ||
    inactiveHandle === undefined
  )
    return undefined
  const active_ = standardAddress(activeHandle)
  const inactive = standardAddress(inactiveHandle)
  if (active_ === undefined || inactive === undefined) return undefined
  return {
    pool: poolAddress,
    totalCoins,
    totalShares: scaledDown(totalShares, scalingFactor),
    scalingFactor,
    commission,
    activeHandle: active_,
    inactiveHandle: inactive
  }
}

export const stakeWrites = (batch: ReadonlyArray<IndexerTransaction>): TableWrite[] => {
  const activities: Row[] = []
  const pools: Row[] = []
  const poolBalances: Row[] = []
  const currentPoolBalances: Row[] = []
  const delegatorBalances: Row[] = []
  const voters: Row[] = []
  for (const t of batch) {
    if (t.kind === "user" || t.kind === "block_metadata" || t.kind === "validator")
      for (const e of t.events) {
        const row = activityOf(t, e)
        if (row !== undefined) activities.push(row)
      }
    const byActiveHandle = new Map<string, PoolBalance>()
    for (const c of t.changes) {
      if (c.type !== "write_resource") continue
      if (c.typeStr === "0x1::stake::StakePool") {
        const data = c.data()
        const operator = address(field(data, "operator_address"))
        const voter = address(field(data, "delegated_voter"))
        if (operator !== undefined && voter !== undefined)
          voters.push({
            staking_pool_address: c.address,
            voter_address: voter,
            last_transaction_version: t.version,
            operator_address: operator
          })
      }
      if (t.kind !== "user" || c.typeStr !== "0x1::delegation_pool::DelegationPool") continue
      const balance = poolBalanceOf(c.address, c.data())
      if (balance === undefined) continue
      byActiveHandle.set(balance.activeHandle, balance)
      if (!pools.some((p) => p.staking_pool_address === balance.pool))
        pools.push({ staking_pool_address: balance.pool, first_transaction_version: t.version })
      const common = {
        staking_pool_address: balance.pool,
        total_coins: balance.totalCoins,
        total_shares: balance.totalShares,
        operator_commission_percentage: balance.commission,
        inactive_table_handle: balance.inactiveHandle,
        active_table_handle: balance.activeHandle
      }
      poolBalances.push({ transaction_version: t.version, ...common })
      currentPoolBalances.push({ ...common, last_transaction_version: t.version })
    }
    if (t.kind !== "user") continue
    for (const c of t.changes) {
      if (c.type !== "write_table_item" && c.type !== "delete_table_item") continue
      const pool = byActiveHandle.get(c.handle)
      if (pool === undefined) continue
      const delegator = standardAddress(c.key)
      if (delegator === undefined) continue
      let shares = "0"
      if (c.type === "write_table_item") {
        const raw = unsigned(c.data()?.value)
        if (raw === undefined) continue
        shares = scaledDown(raw, pool.scalingFactor)
      }
      delegatorBalances.push({
        delegator_address: delegator,
        pool_address: pool.pool,
        pool_type: "active_shares",
        table_handle: c.handle,
        last_transaction_version: t.version,
        shares,
        parent_table_handle: c.handle
      })
    }
  }
  const guard = "last_transaction_version"
  return [
    ...insertRows("delegated_staking_activities", activities),
    // The first version a pool was seen (a pool already stored keeps its row).
    ...insertRows("delegated_staking_pools", pools),
    ...insertRows("delegated_staking_pool_balances", poolBalances),
    ...upsertRows(
      { table: "current_delegated_staking_pool_balances", key: ["staking_pool_address"], guard },
      currentPoolBalances
    ),
    ...upsertRows(
      {
        table: "current_delegator_balances",
        key: ["delegator_address", "pool_address", "pool_type", "table_handle"],
        guard
      },
      delegatorBalances
    ),
    ...upsertRows({ table: "current_staking_pool_voter", key: ["staking_pool_address"], guard }, voters)
  ]
}

export const stakeProcessor: Processor = {
  name: "stake_processor",
  tables: [
    "delegated_staking_activities",
    "delegated_staking_pools",
    "delegated_staking_pool_balances",
    "current_delegated_staking_pool_balances",
    "current_delegator_balances",
    "current_staking_pool_voter"
  ],
  process: stakeWrites
}
