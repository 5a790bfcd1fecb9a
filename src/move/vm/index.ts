/**
 * The Move VM: runs Aptos Move bytecode (v5–v10) against a synchronous `StateView`.
 *
 * - `MoveVm`: the entry point; `call(view, {module, function, tyArgs, args}, {maxGas, view})` runs
 *   one function in a throw-away session and returns BCS results, a Move abort (with its error-map
 *   entry) or a `VmError`, never throwing. One instance keeps one module cache (per ledger).
 * - `Loader`: module cache keyed by module id and the version that wrote it; lazily linked
 *   functions, structs and signatures; generic instantiation bounded in size and depth. A view
 *   naming a `snapshot` (the ledger version) has its modules checked once per snapshot, not per run.
 * - `Type` / `Value`: runtime types (structs point at their loaded definitions; interned, so
 *   substitutions, struct tags and field layouts are cached by identity; one primitive table) and
 *   values (numbers ≤ 32 bits, bigints above, arrays as vectors, `StructValue`, slot `Ref`s, `Closure`s).
 * - `Interpreter`: decoded code (`compileCode`, operand kinds from `inferKinds`), one dispatch
 *   switch, frames on an explicit stack (call depth 1024), arithmetic in `ops/arith`.
 * - `Session`: the run's data cache (resources, resource groups, table items, events, staged
 *   modules). A view's session is thrown away; a transaction's `finish()`es into a change set.
 * - `VmSession` (`MoveVm.session(view, {id, user})`): calls that write. `execute` runs a function
 *   with signers in "system" mode (any visibility and argument type: genesis, block prologue,
 *   transaction prologue/epilogue) or "entry" mode (a user payload: entry only, arguments validated
 *   and built by their constructors); `executeScript`; `finish()` → domain `ChangeSet`. Writes are
 *   found as the reference finds them: a global is dirty when written through a reference rooted in
 *   it (`Ref.root`) or moved to. `SessionId` hashes to the natives' transaction hash;
 *   `UserTransactionContext` answers `transaction_context`.
 * - `natives/`: the framework's natives, one file per module; a missing one is MISSING_DEPENDENCY.
 * - `GasMeter` / `GasSchedule`: instruction, call, native and storage-read costs from the on-chain
 *   `GasScheduleV2`, a table lookup per instruction (a native's cost memoised on its function);
 *   the decoded schedule is reused for views of the same snapshot. The meter also tracks memory
 *   (`MemorySize`): values created, copied, loaded or pushed count against `txn.memory_quota`
 *   and dropped ones are released; running out is MEMORY_LIMIT_EXCEEDED.
 * - Wall clock: a run checks `now()` every `DEADLINE_SLICE` branches + calls; a view stops after
 *   `DEFAULT_VIEW_DEADLINE_MS` (EXECUTION_LIMIT_REACHED), so one view blocks the event loop ~that long.
 * - `ValueBcs`: BCS of values by runtime type, depth-limited (128).
 * - `StatusCode`: the reference's status numbers (`vm_status.rs`), every one, not only those the VM
 *   raises (`VmError`): execution and the API print and number the prologue's and the mempool's
 *   statuses from the same table.
 *
 * Pure: no I/O; state comes in through `StateView` (`stateViewFromReader` adapts the ledger's reader).
 */
export { type CompiledCode, compileCode } from "./compileCode.js"
export { GasMeter, type GasParams } from "./GasMeter.js"
export { decodeGasSchedule, type GasSchedule, meterFor, readGasSchedule } from "./GasSchedule.js"
export { DEADLINE_SLICE, DEFAULT_MAX_BRANCHES, Interpreter, MAX_CALL_DEPTH } from "./Interpreter.js"
export { type CallTarget, LoadedFunction, LoadedModule, Loader, type ModuleDecoder } from "./Loader.js"
export { abstractSize, fieldSize, heapSize, packedSize, shellSize } from "./MemorySize.js"
export {
  type CallOptions,
  type CallOutcome,
  DEFAULT_VIEW_DEADLINE_MS,
  type FunctionCall,
  MoveVm,
  type MoveVmOptions
} from "./MoveVm.js"
export { abortCodeNamed, abortInfo, type VmModuleMetadata, vmModuleMetadata } from "./moduleMetadata.js"
export {
  frameworkNatives,
  type NativeContext,
  type NativeFunction,
  type NativeResult,
  type NativeTable
} from "./natives/index.js"
export { bytesKey } from "../../domain/mapKeys.js"
export {
  type EmittedEvent,
  GlobalSlot,
  type PublishRequest,
  Session,
  type SessionContext
} from "./Session.js"
export { type SessionId, sessionIdHash, sessionScriptHash, writeSessionId } from "./SessionId.js"
export { type KeyValueReader, type StateView, stateViewFromReader } from "./StateView.js"
export type { UserTransactionContext } from "./TransactionContext.js"
export { type VmFailure, vmFailureOf } from "./VmFailure.js"
export {
  type CallMode,
  type ExecOutcome,
  type ExecuteOptions,
  type SessionCall,
  type SessionOptions,
  transactionArgumentBytes,
  VmSession
} from "./VmSession.js"
export * from "./Type.js"
export * from "./Value.js"
export { deserializeValue, MAX_VALUE_DEPTH, serializeValue } from "./ValueBcs.js"
export * from "./StatusCode.js"
export * from "./VmError.js"
