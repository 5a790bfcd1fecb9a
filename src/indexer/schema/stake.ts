import { arrayRel, objectRel, table } from "./TableSpec.js"

export const delegatedStakingActivities = table(
  "delegated_staking_activities",
  "Delegation pool stake, unlock, withdraw and reactivate events.",
  {
    amount: "numeric",
    delegator_address: "String",
    event_index: "bigint",
    event_type: "String",
    pool_address: "String",
    transaction_version: "bigint"
  },
  {
    primaryKey: ["transaction_version", "event_index"],
    indexes: [["pool_address"], ["delegator_address"]]
  }
)

export const currentDelegatorBalances = table(
  "current_delegator_balances",
  "Delegators' shares per pool.",
  {
    delegator_address: "String",
    last_transaction_version: "bigint",
    parent_table_handle: "String",
    pool_address: "String",
    pool_type: "String",
    shares: "numeric",
    table_handle: "String"
  },
  {
    primaryKey: ["delegator_address", "pool_address", "pool_type", "table_handle"],
    indexes: [["pool_address"]],
    relationships: [
      objectRel("current_pool_balance", "current_delegated_staking_pool_balances", [
        "pool_address",
        "staking_pool_address"
      ]),
      objectRel("staking_pool_metadata", "current_staking_pool_voter", ["pool_address", "staking_pool_address"])
    ]
  }
)

export const delegatedStakingPools = table(
  "delegated_staking_pools",
  "Delegation pools.",
  {
    first_transaction_version: "bigint",
    staking_pool_address: "String"
  },
  {
    primaryKey: ["staking_pool_address"],
    relationships: [
      objectRel("current_staking_pool", "current_staking_pool_voter", ["staking_pool_address", "staking_pool_address"])
    ]
  }
)

export const currentDelegatedStakingPoolBalances = table(
  "current_delegated_staking_pool_balances",
  "The latest balance of each delegation pool.",
  {
    active_table_handle: "String",
    inactive_table_handle: "String",
    last_transaction_version: "bigint",
    operator_commission_percentage: "numeric",
    staking_pool_address: "String",
    total_coins: "numeric",
    total_shares: "numeric"
  },
  {
    primaryKey: ["staking_pool_address"]
  }
)

export const delegatedStakingPoolBalances = table(
  "delegated_staking_pool_balances",
  "Delegation pool balances per transaction.",
  {
    active_table_handle: "String",
    inactive_table_handle: "String",
    operator_commission_percentage: "numeric",
    staking_pool_address: "String",
    total_coins: "numeric",
    total_shares: "numeric",
    transaction_version: "bigint"
  },
  {
    primaryKey: ["transaction_version", "staking_pool_address"]
  }
)

export const currentStakingPoolVoter = table(
  "current_staking_pool_voter",
  "Operator and voter of each staking pool.",
  {
    last_transaction_version: "bigint",
    operator_address: "String",
    staking_pool_address: "String",
    voter_address: "String"
  },
  {
    primaryKey: ["staking_pool_address"],
    relationships: [arrayRel("operator_aptos_name", "current_aptos_names", ["operator_address", "registered_address"])]
  }
)

export const currentDelegatedVoter = table(
  "current_delegated_voter",
  "Delegated voters per pool and delegator.",
  {
    delegation_pool_address: "String",
    delegator_address: "String",
    last_transaction_timestamp: "timestamp",
    last_transaction_version: "bigint",
    pending_voter: "String?",
    table_handle: "String?",
    voter: "String?"
  },
  {
    primaryKey: ["delegation_pool_address", "delegator_address"]
  }
)

export const proposalVotes = table(
  "proposal_votes",
  "Governance votes.",
  {
    num_votes: "numeric",
    proposal_id: "bigint",
    should_pass: "Boolean",
    staking_pool_address: "String",
    transaction_timestamp: "timestamp",
    transaction_version: "bigint",
    voter_address: "String"
  },
  {
    primaryKey: ["transaction_version", "proposal_id", "voter_address"]
  }
)

export const numActiveDelegatorPerPool = table(
  "num_active_delegator_per_pool",
  "Delegators with active shares, per pool.",
  {
    num_active_delegator: "bigint?",
    pool_address: "String?"
  },
  {
    // pv2 migration 2024-10-23-232703: delegators with active shares, the burn address excluded.
    view: (d) => `SELECT count(DISTINCT delegator_address) AS num_active_delegator, pool_address
      FROM current_delegator_balances
      WHERE ${d.positive("shares", "numeric")} AND pool_type = 'active_shares'
        AND delegator_address <> '0x${"0".repeat(64)}'
      GROUP BY pool_address`
  }
)

export const delegatorDistinctPool = table(
  "delegator_distinct_pool",
  "Distinct (delegator, pool) pairs with shares.",
  {
    delegator_address: "String?",
    pool_address: "String?"
  },
  {
    relationships: [
      objectRel("current_pool_balance", "current_delegated_staking_pool_balances", [
        "pool_address",
        "staking_pool_address"
      ]),
      objectRel("staking_pool_metadata", "current_staking_pool_voter", ["pool_address", "staking_pool_address"])
    ],
    // pv2 migration 2023-05-22-234344: the (delegator, pool) pairs with shares.
    view: (d) => `SELECT DISTINCT delegator_address, pool_address FROM current_delegator_balances
      WHERE ${d.positive("shares", "numeric")}`
  }
)
