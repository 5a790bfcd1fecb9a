import * as Layer from "effect/Layer"
import { Accounts } from "./Accounts.js"
import { Blocks } from "./Blocks.js"
import { Events } from "./Events.js"
import { Renderer } from "./Renderer.js"
import { Resources } from "./Resources.js"
import { StateValues } from "./StateValues.js"
import { Tables } from "./Tables.js"
import { Transactions } from "./Transactions.js"

/** The services behind the read endpoints of issue 15, with their shared `Renderer`, over a `Ledger`. */
export const ReadsLayer = Layer.mergeAll(
  Resources.layer,
  Blocks.layer,
  Events.layer,
  Tables.layer,
  StateValues.layer
).pipe(Layer.provideMerge(Transactions.layer), Layer.provideMerge(Layer.mergeAll(Renderer.layer, Accounts.layer)))

/** What the read endpoints' handlers use. */
export interface ReadServices {
  readonly accounts: Accounts["Service"]
  readonly resources: Resources["Service"]
  readonly transactions: Transactions["Service"]
  readonly blocks: Blocks["Service"]
  readonly events: Events["Service"]
  readonly tables: Tables["Service"]
  /** `POST /experimental/state_values/raw` (what a fork reads from its source). */
  readonly stateValues: StateValues["Service"]
}
