import * as Result from "effect/Result"
import { deserializeModule } from "../binary/deserialize.js"
import type { BinaryError } from "../binary/BinaryError.js"
import { moduleAbi } from "./moduleAbi.js"

export { type GenesisModuleRow, listGenesisModules } from "./genesisModules.js"

/**
 * `movenode abi <file.mv>`: the pretty-printed ABI JSON of a compiled module's bytes. Pure; the
 * command reads the file and prints the string.
 */
export const moduleAbiCommand = (fileBytes: Uint8Array): Result.Result<string, BinaryError> =>
  Result.map(deserializeModule(fileBytes), (m) => JSON.stringify(moduleAbi(m), null, 2))
