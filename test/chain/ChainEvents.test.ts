/** ChainEvents: what each kind of subscription hands its subscriber. */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { describe, expect, it } from "vitest"
import { type BlockCommittedEvent, ChainEvents, type RewoundEvent } from "../../src/chain/ChainEvents.js"
import type { BlockInfo } from "../../src/ledger/Ledger.js"

const block = { height: 3n } as unknown as BlockInfo
const committed: BlockCommittedEvent = { _tag: "BlockCommitted", block, committed: [], discarded: [], dropped: ["a"] }
const rewound: RewoundEvent = { _tag: "Rewound", reason: "revert", version: 1n, height: 0n, dropped: ["b"] }

const run = <A>(effect: Effect.Effect<A, never, ChainEvents | Scope.Scope>) =>
  Effect.runPromise(Effect.scoped(Effect.provide(effect, ChainEvents.layer)))

describe("ChainEvents", () => {
  it("poolSubscription passes snapshot marks over and hands blocks and rewinds in order", async () => {
    const seen = await run(
      Effect.gen(function* () {
        const events = yield* ChainEvents
        const take = yield* events.poolSubscription
        yield* events.publish({ _tag: "Marked", version: 1n })
        yield* events.publish(committed)
        yield* events.publish({ _tag: "Marked", version: 2n })
        yield* events.publish({ _tag: "Marked", version: 2n })
        yield* events.publish(rewound)
        return [yield* take, yield* take]
      })
    )
    expect(seen).toEqual([committed, rewound])
  })

  it("subscription hands every event, marks included", async () => {
    const seen = await run(
      Effect.gen(function* () {
        const events = yield* ChainEvents
        const take = yield* events.subscription
        yield* events.publish({ _tag: "Marked", version: 1n })
        yield* events.publish(committed)
        return [yield* take, yield* take]
      })
    )
    expect(seen.map((e) => e._tag)).toEqual(["Marked", "BlockCommitted"])
  })
})
