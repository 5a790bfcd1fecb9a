/**
 * Every table and view the indexer serves (indexer.md §2), in one list: the store creates them, the
 * GraphQL schema exposes them (one root field, `_aggregate` and relationships each), processors
 * write them. Add a table by declaring it in its group's file and listing it here.
 */

import * as accountRestoration from "./accountRestoration.js"
import * as ans from "./ans.js"
import * as fungibleAssets from "./fungibleAssets.js"
import * as objects from "./objects.js"
import * as stake from "./stake.js"
import * as status from "./status.js"
import type { TableSpec } from "./TableSpec.js"
import * as tableItems from "./tableItems.js"
import * as tokens from "./tokens.js"
import * as transactions from "./transactions.js"

export const catalogueTables: ReadonlyArray<TableSpec> = [
  status,
  transactions,
  fungibleAssets,
  objects,
  tokens,
  tableItems,
  accountRestoration,
  stake,
  ans
].flatMap((group) => Object.values(group))

const byName = new Map(catalogueTables.map((t) => [t.name, t]))

/** The table (or view) named `name`. */
export const tableNamed = (name: string): TableSpec | undefined => byName.get(name)
