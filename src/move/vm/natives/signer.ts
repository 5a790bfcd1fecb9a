import { Ref, type StructValue, signerValue } from "../Value.js"
import type { NativeFunction } from "./NativeContext.js"

/** `0x1::signer::borrow_address`: a reference to the signer's address field. */
export const signerNatives: Record<string, NativeFunction> = {
  borrow_address: (_c, _t, [s]) => {
    const v = (s as Ref).get() as StructValue
    return [new Ref(v.fields, 0, (s as Ref).root)]
  }
}

/** `0x1::create_signer::create_signer`. */
export const createSignerNatives: Record<string, NativeFunction> = {
  create_signer: (_c, _t, [a]) => [signerValue(a as Uint8Array)]
}
