import { HttpApi, OpenApi } from "effect/http-api"
import { AccountStateGroup } from "./groups/AccountStateGroup.js"
import { AccountsGroup } from "./groups/AccountsGroup.js"
import { BlocksGroup } from "./groups/BlocksGroup.js"
import { ExperimentalGroup } from "./groups/ExperimentalGroup.js"
import { GeneralGroup } from "./groups/GeneralGroup.js"
import { SubmissionsGroup } from "./groups/SubmissionsGroup.js"
import { TablesGroup } from "./groups/TablesGroup.js"
import { TransactionReadsGroup } from "./groups/TransactionReadsGroup.js"
import { SimulationGroup } from "./groups/SimulationGroup.js"
import { TransactionsGroup } from "./groups/TransactionsGroup.js"
import { ViewGroup } from "./groups/ViewGroup.js"

/**
 * The one definition of what movenode serves. The OpenAPI document and the typed client are
 * derived from it, and the server's route table is read from it (see `Routes.ts`).
 */
export class Api extends HttpApi.make("movenode")
  .add(GeneralGroup)
  .add(AccountsGroup)
  .add(TransactionsGroup)
  .add(ViewGroup)
  .add(AccountStateGroup)
  .add(TransactionReadsGroup)
  .add(BlocksGroup)
  .add(TablesGroup)
  .add(SimulationGroup)
  .add(SubmissionsGroup)
  .add(ExperimentalGroup)
  .annotateMerge(
    OpenApi.annotations({
      title: "movenode",
      version: "0.1.0",
      description: "An Aptos-compatible node REST API (a subset of the reference's /v1)"
    })
  ) {}
