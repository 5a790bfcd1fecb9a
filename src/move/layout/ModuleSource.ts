import type { AccountAddress } from "../../domain/AccountAddress.js"
import type { CompiledModule } from "../binary/CompiledModule.js"
import type { MoveTypeLayout } from "./MoveTypeLayout.js"

/**
 * Where the layout resolver (and the encoder) find modules: a synchronous lookup by address and
 * name, answering undefined when the module does not exist. Callers bind it to a state version
 * (the latest, for encode_submission) and may cache decoded modules behind it.
 */
export type ModuleSource = ((address: AccountAddress, name: string) => CompiledModule | undefined) & {
  /**
   * Layouts already resolved through modules the same as this source's, by the type's canonical
   * string (`resolveLayout` keeps them there): a source over state whose modules are named
   * (`StateReader.codeSnapshotId`) keeps them across versions. Asked for at each use; optional.
   */
  readonly layouts?: (() => Map<string, MoveTypeLayout>) | undefined
}
