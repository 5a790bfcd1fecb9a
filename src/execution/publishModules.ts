/**
 * `resolve_pending_code_publish_and_finish_user_session` with `validate_publish_request` and the
 * session's `finish_with_module_publishing_and_initialization` (aptos-vm): the bundle
 * `0x1::code::publish_package` asked to publish (the session's publish request) is deserialized,
 * charged (each new module and each replaced one, per module and per byte, outside the special
 * addresses), checked (self address = the destination, no duplicate names, exactly the modules the
 * package metadata registers, dependencies within `allowed_deps` when given, no native functions
 * outside the framework addresses, every dependency and friend resolvable in the bundle or in
 * state, the compatible policy's upgrade rules against the module it replaces; the metadata —
 * its complexity, format and attributes, `move/metadata/validateMetadata.ts` — and the resource
 * groups across the bundle and what it replaces, `resourceGroups.ts`), staged in the session, and
 * `init_module(&signer)` run for each module that did not exist before.
 *
 * The bytecode verifier (`move/verifier`) runs on every module of the bundle, its dependencies
 * found in the bundle first, then in state. Not done (docs/verifier.md lists it): the reference
 * verifier's remaining checks. Event metadata is validated (`moduleEventsError`).
 */
import * as Result from "effect/Result"
import { addressEquals, addressToShortString } from "../domain/AccountAddress.js"
import type { CompiledModule } from "../move/binary/CompiledModule.js"
import { deserializeModule } from "../move/binary/deserialize.js"
import { describeFailure, resolverOverState, verifyModule } from "../move/verifier/index.js"
import { publishMetadataError } from "../move/metadata/validateMetadata.js"
import { moduleEventsError } from "../move/vm/eventValidation.js"
import type { PublishRequest } from "../move/vm/Session.js"
import type { VmSession } from "../move/vm/VmSession.js"
import { VmError } from "../move/vm/VmError.js"
import { incompatibility } from "./checkCompatibility.js"
import { resourceGroupsError } from "./resourceGroups.js"
import { asStatusName, type StatusName } from "../move/vm/StatusCode.js"
import type { TransactionMeter } from "./TransactionMeter.js"
import type { TransactionRun } from "./TransactionRun.js"
import { vmStatusOf } from "./vmStatusOf.js"
import { type VmStatus, vmError } from "./VmStatus.js"

const isSpecial = (a: Uint8Array): boolean => {
  if (a[31]! >= 16) return false
  for (let i = 0; i < 31; i++) if (a[i] !== 0) return false
  return true
}

const selfId = (m: CompiledModule) => {
  const h = m.moduleHandles[m.selfModuleHandleIndex]!
  return { address: m.addressIdentifiers[h.address]!, name: m.identifiers[h.name]! }
}

const fail = (status: StatusName, message: string): VmStatus => vmError(status, message)

const metadataMismatch = (message: string): VmStatus =>
  fail("CONSTRAINT_NOT_SATISFIED", `metadata and code bundle mismatch: ${message}`)

/** Publishes `request` into `session`; undefined on success, else the failure (kept as charged). */
export const publishModules = (
  run: TransactionRun,
  session: VmSession,
  request: PublishRequest,
  meter: TransactionMeter
): VmStatus | undefined => {
  const modules: CompiledModule[] = []
  for (const blob of request.bundle) {
    const m = deserializeModule(blob)
    if (Result.isFailure(m)) return fail("CODE_DESERIALIZATION_ERROR", m.failure.message)
    modules.push(m.success)
  }
  const ids = modules.map(selfId)
  const existing = ids.map((id) => run.view.module(id.address, id.name))

  // Gas: the old version of each replaced module, then every module of the bundle.
  try {
    for (let i = 0; i < ids.length; i++) {
      const old = existing[i]
      if (old !== undefined) meter.gas.chargeDependency(ids[i]!.address, old.bytes.length)
    }
    for (let i = 0; i < ids.length; i++) meter.gas.chargeDependency(ids[i]!.address, request.bundle[i]!.length)
  } catch (e) {
    if (e instanceof VmError) return vmError(asStatusName(e.status), e.detail)
    throw e
  }

  // validate_publish_request
  const expected = new Set(request.expectedModules)
  for (const [i, m] of modules.entries()) {
    const id = ids[i]!
    if (!isSpecial(id.address) && m.functionDefs.some((d) => d.code === undefined))
      return fail("USER_DEFINED_NATIVE_NOT_ALLOWED", `module ${id.name} declares native functions`)
    if (!expected.delete(id.name)) return metadataMismatch(`unregistered module: '${id.name}'`)
    if (request.allowedDeps !== undefined)
      for (const [k, h] of m.moduleHandles.entries()) {
        if (k === m.selfModuleHandleIndex) continue
        const address = m.addressIdentifiers[h.address]!
        const name = m.identifiers[h.name]!
        const allowed = request.allowedDeps.some(
          (d) => addressEquals(d.account, address) && (d.moduleName === "" || d.moduleName === name)
        )
        if (!allowed) return metadataMismatch(`unregistered dependency: '${addressToShortString(address)}::${name}'`)
      }
  }
  if (expected.size > 0) return metadataMismatch("not all registered modules published")
  // verify_module_metadata_for_module_publish: complexity, metadata format, attributes.
  for (const m of modules) {
    const why = publishMetadataError(m)
    if (why !== undefined) return metadataMismatch(why)
  }
  // The modules the bundle replaces, as published (one that no longer decodes counts as none).
  const previous = existing.map((old) => {
    const prev = old === undefined ? undefined : deserializeModule(old.bytes)
    return prev !== undefined && Result.isSuccess(prev) ? prev.success : undefined
  })
  // validate_resource_groups: memberships kept on upgrade, groups that exist, within their scope.
  const groups = resourceGroupsError(modules, (m) => previous[modules.indexOf(m)], resolverOverState(run.view))
  if (groups !== undefined) return metadataMismatch(groups)
  // event_validation::validate_module_events: event::emit only with this module's #[event] structs.
  for (const [i, m] of modules.entries()) {
    const why = moduleEventsError(m, previous[i])
    if (why !== undefined) return fail("EVENT_METADATA_VALIDATION_ERROR", why)
  }

  // finish_with_module_publishing_and_initialization: addresses, names, linking, compatibility.
  const names = new Set<string>()
  for (const id of ids) {
    if (!addressEquals(id.address, request.destination))
      return fail(
        "MODULE_ADDRESS_DOES_NOT_MATCH_SENDER",
        `module ${addressToShortString(id.address)}::${id.name} published at ${addressToShortString(request.destination)}`
      )
    if (names.has(id.name)) return fail("DUPLICATE_MODULE_NAME", `module ${id.name} published twice`)
    names.add(id.name)
  }
  for (const m of modules)
    for (const [k, h] of m.moduleHandles.entries()) {
      if (k === m.selfModuleHandleIndex) continue
      const address = m.addressIdentifiers[h.address]!
      const name = m.identifiers[h.name]!
      const inBundle = addressEquals(address, request.destination) && names.has(name)
      if (!inBundle && run.view.module(address, name) === undefined)
        return fail("LINKER_ERROR", `module ${addressToShortString(address)}::${name} not found`)
    }
  // The bytecode verifier (move/verifier/index.ts: every pass, then the dependencies as the bundle
  // and state define them).
  const inState = resolverOverState(run.view)
  const resolve = (address: Uint8Array, name: string): CompiledModule | undefined => {
    const k = addressEquals(address, request.destination) ? ids.findIndex((id) => id.name === name) : -1
    return k >= 0 ? modules[k] : inState(address, name)
  }
  for (const [i, m] of modules.entries()) {
    const refused = verifyModule(m, resolve)
    if (refused !== undefined) return fail(refused.status, `module ${ids[i]!.name}: ${describeFailure(m, refused)}`)
  }
  if (request.upgradePolicy >= 1)
    for (const [i, m] of modules.entries()) {
      const prev = previous[i]
      if (prev === undefined) continue
      const why = incompatibility(prev, m, true)
      if (why !== undefined) return fail("BACKWARD_INCOMPATIBLE_MODULE_UPDATE", `module ${ids[i]!.name}: ${why}`)
    }

  session.stageModules(ids.map((id, i) => ({ id, bytes: request.bundle[i]! })))

  // init_module(&signer) of each new module that declares one.
  for (const [i, m] of modules.entries()) {
    if (existing[i] !== undefined) continue
    const hasInit = m.functionDefs.some((d) => m.identifiers[m.functionHandles[d.function]!.name] === "init_module")
    if (!hasInit) continue
    const init = session.execute(
      { module: ids[i]!, function: "init_module", tyArgs: [], signers: [request.destination], args: [] },
      { mode: "system", gas: meter.gas }
    )
    if (init._tag !== "Success") return vmStatusOf(init)
  }
  return undefined
}
