import type { StructValue, Value } from "../Value.js"
import { chargeParam, readString } from "./helpers.js"
import { type NativeFunction, nativeAbort } from "./NativeContext.js"

/** `invalid_state(0)`: a second publish request in one session. */
const EALREADY_REQUESTED = 0x03_0000n
const PER_BYTE = "aptos_framework.code.request_publish.per_byte"

const bundleOf = (v: Value): Uint8Array[] => (v as number[][]).map((m) => Uint8Array.from(m))

/**
 * `0x1::code::request_publish(owner, expected_modules, bundle, policy)` and
 * `request_publish_with_allowed_deps(owner, expected_modules, allowed_deps, bundle, policy)`:
 * the request is recorded on the session, and the executor verifies and publishes the bundle after
 * the payload returns (the reference's `NativeCodeContext`). One request per session.
 */
export const codeNatives: Record<string, NativeFunction> = {
  request_publish: (ctx, _t, [owner, expected, bundle, policy]) => {
    if (ctx.session.publishRequest !== undefined) return nativeAbort(ctx, EALREADY_REQUESTED)
    const code = bundleOf(bundle)
    const names = (expected as Value[]).map(readString)
    for (const m of code) chargeParam(ctx, PER_BYTE, m.length)
    for (const n of names) chargeParam(ctx, PER_BYTE, n.length)
    ctx.session.publishRequest = {
      destination: owner as Uint8Array,
      bundle: code,
      expectedModules: names,
      allowedDeps: undefined,
      upgradePolicy: policy as number
    }
    return []
  },
  request_publish_with_allowed_deps: (ctx, _t, [owner, expected, deps, bundle, policy]) => {
    if (ctx.session.publishRequest !== undefined) return nativeAbort(ctx, EALREADY_REQUESTED)
    const code = bundleOf(bundle)
    const names = (expected as Value[]).map(readString)
    const allowedDeps = (deps as Value[]).map((d) => {
      const f = (d as StructValue).fields
      return { account: f[0] as Uint8Array, moduleName: readString(f[1]) }
    })
    for (const m of code) chargeParam(ctx, PER_BYTE, m.length)
    for (const n of names) chargeParam(ctx, PER_BYTE, n.length)
    for (const d of allowedDeps) chargeParam(ctx, PER_BYTE, 32 + d.moduleName.length)
    ctx.session.publishRequest = {
      destination: owner as Uint8Array,
      bundle: code,
      expectedModules: names,
      allowedDeps,
      upgradePolicy: policy as number
    }
    return []
  }
}
