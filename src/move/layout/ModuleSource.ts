import type { AccountAddress } from "../../domain/AccountAddress.js"
import type { CompiledModule } from "../binary/CompiledModule.js"

/**
 * Where the layout resolver (and the encoder) find modules: a synchronous lookup by address and
 * name, answering undefined when the module does not exist. Callers bind it to a state version
 * (the latest, for encode_submission) and may cache decoded modules behind it.
 */
export type ModuleSource = (address: AccountAddress, name: string) => CompiledModule | undefined
