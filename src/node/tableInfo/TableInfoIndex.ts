/**
 * What the node knows of each table: handle → key and value types, learned from write sets in
 * version order (`learn`), as the reference's table-info indexer does. A write set's resources
 * (and resource-group members) are walked first, then its table values: a table stored inside
 * another table's value is found once the outer table is known, so the table items are revisited
 * until a pass learns nothing new (the reference parks such items until their table appears).
 * A table's types never change once it exists, so one map serves every version after its creation.
 */
import * as Result from "effect/Result"
import { Bcs } from "../../bcs/index.js"
import { resourceGroupCodec } from "../../domain/ResourceGroupCodec.js"
import type { StructTag, TypeTag } from "../../domain/TypeTag.js"
import { structTagToString, typeTagToString } from "../../domain/TypeTagString.js"
import type { WriteSet } from "../../domain/WriteSet.js"
import type { ModuleSource } from "../../move/layout/ModuleSource.js"
import type { MoveTypeLayout } from "../../move/layout/MoveTypeLayout.js"
import { resolveLayout } from "../../move/layout/resolveLayout.js"
import { tablesInValue } from "./tablesInValue.js"

/** A table's types, as tags and as the API prints them (`to_canonical_string`). */
export interface TableType {
  readonly key: TypeTag
  readonly value: TypeTag
  readonly keyType: string
  readonly valueType: string
}

/** A table item's value as written, by its table's handle (32 bytes). */
export interface TableValue {
  readonly handle: Uint8Array
  readonly bytes: Uint8Array
}

/** The lookup renderers take: a handle's types, or undefined when the table is unknown. */
export type TableTypes = (handle: Uint8Array) => TableType | undefined

/** No table known (a simulation, a test). */
export const noTableTypes: TableTypes = () => undefined

/** Layouts the index keeps at most (then it starts afresh). */
const MAX_LAYOUTS = 4096

const handleKey = (handle: Uint8Array): string => Buffer.from(handle).toString("hex")

export class TableInfoIndex {
  private readonly tables = new Map<string, TableType>()
  /**
   * Resolved layouts by type text; `null` for types that do not resolve (a missing module). A plain
   * map emptied when it holds `MAX_LAYOUTS`, not an LRU: the types in use are few, and an LRU's hit
   * costs a delete and a set besides the lookup (its reordering was 2.3 % of the index's JavaScript).
   */
  private readonly layouts = new Map<string, MoveTypeLayout | null>()

  get size(): number {
    return this.tables.size
  }

  readonly lookup: TableTypes = (handle) => this.tables.get(handleKey(handle))

  /** Every known table (handle hex without 0x → types), for listing. */
  entries(): IterableIterator<[string, TableType]> {
    return this.tables.entries()
  }

  /**
   * Forgets the layouts kept by type text (the tables learned stay): after the ledger went back, a
   * module published again above the rewind point may give a struct another layout under the same
   * text (`followLedger` calls this on a rewind).
   */
  forgetLayouts(): void {
    this.layouts.clear()
  }

  private keepLayout(text: string, layout: MoveTypeLayout | null): void {
    if (this.layouts.size >= MAX_LAYOUTS) this.layouts.clear()
    this.layouts.set(text, layout)
  }

  private layoutOf(modules: ModuleSource, type: TypeTag, text: string): MoveTypeLayout | undefined {
    const hit = this.layouts.get(text)
    if (hit !== undefined) return hit ?? undefined
    const layout = resolveLayout(modules, type)
    const value = Result.isSuccess(layout) ? layout.success : null
    this.keepLayout(text, value)
    return value ?? undefined
  }

  /** Records the tables in one value; false when the value could not be walked. */
  private learnValue(modules: ModuleSource, type: TypeTag, text: string, bytes: Uint8Array): void {
    const layout = this.layoutOf(modules, type, text)
    if (layout === undefined) return
    let found = tablesInValue(layout, bytes)
    if (Result.isFailure(found)) {
      // A cached layout may predate an upgrade that added an enum variant: resolve once more.
      this.layouts.set(text, null)
      const fresh = resolveLayout(modules, type)
      if (Result.isFailure(fresh)) return
      this.keepLayout(text, fresh.success)
      found = tablesInValue(fresh.success, bytes)
      if (Result.isFailure(found)) return
    }
    for (const t of found.success) {
      const id = handleKey(t.handle)
      if (!this.tables.has(id))
        this.tables.set(id, {
          key: t.key,
          value: t.value,
          keyType: typeTagToString(t.key),
          valueType: typeTagToString(t.value)
        })
    }
  }

  /**
   * Learns the tables a resource (or a resource group's member) holds; `text` is its type's
   * string (`structTagToString`), which a caller that already has it passes instead of building it
   * again.
   */
  learnResource(modules: ModuleSource, struct: StructTag, text: string, bytes: Uint8Array): void {
    this.learnValue(modules, { _tag: "struct", struct }, text, bytes)
  }

  /**
   * Learns the tables held by table values, after the resources of the same write set: an item
   * whose table is not known yet is revisited while a pass learns something (a table inside a
   * table's value); what stays unknown is passed over.
   */
  learnTableItems(modules: ModuleSource, items: ReadonlyArray<TableValue>): void {
    let waiting = items
    while (waiting.length > 0) {
      const next: TableValue[] = []
      for (const item of waiting) {
        const t = this.lookup(item.handle)
        if (t === undefined) next.push(item)
        else this.learnValue(modules, t.value, t.valueType, item.bytes)
      }
      if (next.length === waiting.length) return
      waiting = next
    }
  }

  /**
   * Learns the tables one write set creates or stores, with `modules` at (or after) its version.
   * Values that do not decode are passed over, as the reference logs and skips them.
   */
  learn(modules: ModuleSource, ws: WriteSet): void {
    const items: TableValue[] = []
    for (const e of ws.entries) {
      if (!("data" in e.op)) continue
      const data = e.op.data
      const key = e.key
      if (key._tag === "TableItem") items.push({ handle: key.handle, bytes: data })
      else if (key._tag === "AccessPath") {
        const path = key.path
        if (path._tag === "Resource") this.learnResource(modules, path.struct, structTagToString(path.struct), data)
        else if (path._tag === "ResourceGroup") {
          const members = Bcs.decode(resourceGroupCodec, data)
          if (Result.isSuccess(members))
            for (const m of members.success) this.learnResource(modules, m.struct, structTagToString(m.struct), m.bytes)
        }
      }
    }
    this.learnTableItems(modules, items)
  }
}
