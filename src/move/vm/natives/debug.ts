import { makeString } from "./helpers.js"
import type { NativeFunction } from "./NativeContext.js"

/** `0x1::debug`: printing is a no-op in the node; the stack trace is empty. */
export const debugNatives: Record<string, NativeFunction> = {
  native_print: () => [],
  native_stack_trace: () => [makeString("")],
  /** The 2022 framework's names. */
  print: () => [],
  print_stack_trace: () => []
}
