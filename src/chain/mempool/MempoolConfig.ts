import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"

/**
 * The mempool's limits (the reference's `MempoolConfig`, config/src/config/mempool_config.rs).
 * Per-account limits are the reference's; the totals are smaller than a validator's (2,000,000
 * transactions, 2 GiB) because a local chain empties its pool every block and its memory should
 * stay small: a full pool answers 507 `mempool_is_full`.
 */
export const MempoolConfigSchema = Schema.Struct({
  /** Transactions held in total (`capacity`). */
  capacity: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 10_000_000 })),
  /** Estimated bytes held in total (`capacity_bytes`). */
  capacityBytes: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 8 * 1024 * 1024 * 1024 })),
  /** Sequence-number transactions per sender (`capacity_per_user`; the SDK keeps 100 in flight). */
  capacityPerUser: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100_000 })),
  /** Orderless (nonce) transactions per sender (`orderless_txn_capacity_per_user`). */
  orderlessCapacityPerUser: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100_000 })),
  /** A transaction not committed this long after it arrived is dropped (`system_transaction_timeout_secs`). */
  systemTtlSecs: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 86_400 })),
  /**
   * Transactions held past which admissions slow down (ours; the reference admits on threads of
   * their own): a few blocks' worth waits already, so the event loop's time goes to making blocks
   * rather than to admitting more, and clients wait for their answer instead of being refused
   * `mempool_is_full` once their sender has 100 pending (Mempool.ts, `admitInBudget`).
   */
  backpressureAt: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 10_000_000 })),
  /**
   * A block counts as being made while one of its execution slices ran within this many ms (ours):
   * with interval or manual mining nothing competes between blocks, so a deep pool is then
   * admitted at full speed.
   */
  blockActivityWindowMs: Schema.Number.check(Schema.isBetween({ minimum: 0, maximum: 3_600_000 })),
  /**
   * Submissions per second from which their validation leaves the event loop (ours), so a loaded
   * chain's second core does it: the common single-key Ed25519 kinds go to the admission worker
   * (`AdmissionThread`: the signature and the prologue there); the other kinds, and all of them
   * where there is no worker, have their signature checked on libuv's thread pool and the rest on
   * the event loop (`Mempool.ts`' `inThread`). Below this rate each is validated at once on the
   * event loop (~0.1–0.3 ms): no thread to wake and none to wait for, which at 100/s took 1–2 ms off the
   * submission's answer and half its p99 (docs/benchmarks.md, session 25). 0: always off the loop
   * (where it can be).
   */
  offThreadFromPerSecond: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 10_000_000 }))
})

export type MempoolConfigShape = typeof MempoolConfigSchema.Type

export const defaultMempoolConfig: MempoolConfigShape = {
  capacity: 100_000,
  capacityBytes: 256 * 1024 * 1024,
  capacityPerUser: 100,
  orderlessCapacityPerUser: 1000,
  systemTtlSecs: 600,
  // Four blocks of the producer's 250 (BlockProducer's maxBlockTransactions): blocks stay full,
  // and with 64 senders that is ~16 pending each, far from the 100 that are refused.
  backpressureAt: 1000,
  blockActivityWindowMs: 100,
  // Above the 100/s of `loadgen.mjs latency` (and of a test suite's submit-and-wait loop): its
  // event-loop cost there is a few % of one core.
  offThreadFromPerSecond: 300
}

/** The mempool's configuration: a reference with the defaults, so nothing has to provide it. */
export const MempoolConfig = Context.Reference<MempoolConfigShape>("movenode/chain/MempoolConfig", {
  defaultValue: () => defaultMempoolConfig
})

const decode = Schema.decodeUnknownSync(MempoolConfigSchema)

/** Overrides parts of the defaults; throws a readable error when a value is out of range. */
export const makeMempoolConfig = (overrides: Partial<MempoolConfigShape> = {}): MempoolConfigShape =>
  decode({ ...defaultMempoolConfig, ...overrides })

export const mempoolConfigLayer = (config: MempoolConfigShape) => Layer.succeed(MempoolConfig, config)
