import type { Ref } from "../Value.js"
import type { NativeFunction } from "./NativeContext.js"

/** `0x1::mem::swap`: exchanges what two mutable references point to. */
export const memNatives: Record<string, NativeFunction> = {
  swap: (_c, _t, [l, r]) => {
    const a = l as Ref
    const b = r as Ref
    const t = a.get()
    a.set(b.get())
    b.set(t)
    return []
  }
}
