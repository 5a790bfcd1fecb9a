import { describe, expect, it } from "vitest"
import { MoveAbort } from "../../../src/move/vm/VmError.js"

describe("MoveAbort", () => {
  it("carries its code and location but no JS stack (an abort is Move's outcome), and leaves the stack limit as it was", () => {
    const limit = Error.stackTraceLimit
    const e = new MoveAbort(7n, undefined, "why")
    expect(e).toBeInstanceOf(Error)
    expect(e.code).toBe(7n)
    expect(e.abortMessage).toBe("why")
    expect(e.message).toBe("Move abort 7")
    expect(e.stack ?? "").not.toContain("\n    at ")
    expect(Error.stackTraceLimit).toBe(limit)
    // Other errors still capture theirs.
    expect(new Error("x").stack).toContain("\n    at ")
  })
})
