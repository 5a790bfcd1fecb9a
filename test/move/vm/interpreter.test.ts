/** The interpreter's runtime checks, on the hand-assembled module `0xcafe::t` (see testModule.ts). */
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { BcsReader, BcsWriter } from "../../../src/bcs/index.js"
import { deserializeModule } from "../../../src/move/binary/deserialize.js"
import { serializeModule } from "../../../src/move/binary/serialize.js"
import { GasMeter } from "../../../src/move/vm/GasMeter.js"
import { Interpreter } from "../../../src/move/vm/Interpreter.js"
import { type CallOutcome, MoveVm } from "../../../src/move/vm/MoveVm.js"
import { Session } from "../../../src/move/vm/Session.js"
import { MoveAbort } from "../../../src/move/vm/VmError.js"
import { genesisState } from "./genesisState.js"
import { TEST_ADDRESS, testModuleBytes, withTestModule } from "./testModule.js"

const u64 = (v: bigint) => new BcsWriter().u64(v).toBytes()
const u8 = (v: number) => new BcsWriter().u8(v).toBytes()
const U64_MAX = (1n << 64n) - 1n

const view = withTestModule(genesisState("devnet").view)
const vm = new MoveVm()
const run = (fn: string, args: Uint8Array[], options: { maxGas?: bigint; maxBranches?: number } = {}): CallOutcome =>
  vm.call(view, { module: { address: TEST_ADDRESS, name: "t" }, function: fn, tyArgs: [], args }, options)

const status = (o: CallOutcome): string => (o._tag === "Error" ? o.error.status : o._tag)
const value = (o: CallOutcome): BcsReader => {
  if (o._tag !== "Success") throw new Error(`expected success, got ${status(o)}`)
  return new BcsReader(o.values[0]!)
}

describe("interpreter runtime checks", () => {
  it("u64 addition, and overflow is ARITHMETIC_ERROR", () => {
    expect(value(run("add", [u64(1n), u64(2n)])).u64()).toBe(3n)
    expect(value(run("add", [u64(U64_MAX - 1n), u64(1n)])).u64()).toBe(U64_MAX)
    expect(status(run("add", [u64(U64_MAX), u64(1n)]))).toBe("ARITHMETIC_ERROR")
  })

  it("u8 arithmetic overflows at 255, not at a wider width", () => {
    expect(value(run("add8", [u8(200), u8(55)])).u8()).toBe(255)
    expect(status(run("add8", [u8(200), u8(56)]))).toBe("ARITHMETIC_ERROR")
  })

  it("subtraction underflow, division by zero, shift amount and cast range", () => {
    expect(status(run("sub", [u64(1n), u64(2n)]))).toBe("ARITHMETIC_ERROR")
    expect(value(run("div", [u64(7n), u64(2n)])).u64()).toBe(3n)
    expect(status(run("div", [u64(1n), u64(0n)]))).toBe("ARITHMETIC_ERROR")
    expect(value(run("shl", [u64(3n), u8(63)])).u64()).toBe(1n << 63n)
    expect(status(run("shl", [u64(1n), u8(64)]))).toBe("ARITHMETIC_ERROR")
    expect(value(run("cast8", [u64(255n)])).u8()).toBe(255)
    expect(status(run("cast8", [u64(256n)]))).toBe("ARITHMETIC_ERROR")
  })

  it("vectors grow through references; an out-of-bounds borrow is VECTOR_OPERATION_ERROR", () => {
    expect(value(run("grow", [u64(1000n)])).u64()).toBe(1000n)
    expect(status(run("borrow_oob", [u64(0n)]))).toBe("VECTOR_OPERATION_ERROR")
  })

  it("abort carries its code and location", () => {
    const o = run("abort_with", [u64(7n)])
    expect(o._tag).toBe("Abort")
    if (o._tag === "Abort") {
      expect(o.code).toBe(7n)
      expect(o.location?.name).toBe("t")
    }
  })

  it("the interpreter answers an abort as a value rather than throwing it (a throw costs V8 a frame summary)", () => {
    const gas = GasMeter.unmetered()
    const interpreter = new Interpreter(vm.loader, new Session(view, gas), gas, () => 4)
    const answer = vm.loader.withView(view, () =>
      interpreter.execute(vm.loader.loadFunction(TEST_ADDRESS, "t", "abort_with"), [], [7n])
    )
    expect(answer).toBeInstanceOf(MoveAbort)
    if (answer instanceof MoveAbort) {
      expect(answer.code).toBe(7n)
      expect(answer.location?.name).toBe("t")
    }
    // And a call that returns answers its values.
    const sum = vm.loader.withView(view, () =>
      interpreter.execute(vm.loader.loadFunction(TEST_ADDRESS, "t", "add"), [], [1n, 2n])
    )
    expect(sum).toEqual([3n])
  })

  it("a runaway loop is stopped by gas (OUT_OF_GAS) and gas used is the whole budget", () => {
    const o = run("spin", [], { maxGas: 10_000n })
    expect(status(o)).toBe("OUT_OF_GAS")
    expect(o.gasUsed).toBe(10_000n)
  })

  it("a runaway loop under a large budget is stopped by the branch limit", () => {
    expect(status(run("spin", [], { maxGas: 2_000_000n, maxBranches: 100_000 }))).toBe("EXECUTION_LIMIT_REACHED")
  })

  it("a huge vector is stopped by gas", () => {
    expect(status(run("grow", [u64(1n << 40n)], { maxGas: 1_000n }))).toBe("OUT_OF_GAS")
  })

  it("endless recursion fails with CALL_STACK_OVERFLOW, not a host stack overflow", () => {
    expect(status(run("recurse", [u64(1n)]))).toBe("CALL_STACK_OVERFLOW")
  })

  it("a missing function or module is a linker/resolution error", () => {
    expect(status(run("nope", []))).toBe("FUNCTION_RESOLUTION_FAILURE")
    const o = vm.call(view, { module: { address: TEST_ADDRESS, name: "nope" }, function: "f", tyArgs: [], args: [] })
    expect(status(o)).toBe("LINKER_ERROR")
  })

  it("a closure captures an argument and is called with the rest (v8 PackClosure / CallClosure)", () => {
    expect(value(run("closure_add5", [u64(37n)])).u64()).toBe(42n)
    expect(status(run("closure_add5", [u64(U64_MAX)]))).toBe("ARITHMETIC_ERROR")
  })

  it("signed integers (v9): negation and i8 overflow", () => {
    const i64 = (v: bigint) => new BcsWriter().signed(64, v).toBytes()
    const i8 = (v: number) => new BcsWriter().signed(8, v).toBytes()
    expect(value(run("neg64", [i64(5n)])).signed(64)).toBe(-5n)
    expect(status(run("neg64", [i64(-(1n << 63n))]))).toBe("ARITHMETIC_ERROR")
    expect(value(run("addi8", [i8(-100), i8(-28)])).signed(8)).toBe(-128)
    expect(status(run("addi8", [i8(-100), i8(-29)]))).toBe("ARITHMETIC_ERROR")
  })

  it("loading a module outside 0x0–0xf is charged per module and per byte (framework modules are free)", () => {
    const o = run("add", [u64(1n), u64(2n)], { maxGas: 1_000n })
    const dependency = 744_600 + 420 * testModuleBytes.length // devnet txn.dependency_per_module / per_byte
    expect(o._tag).toBe("Success")
    expect(Number(o.gasUsed) * 1_000_000).toBeGreaterThanOrEqual(dependency)
  })

  it("a body that runs past its last instruction (code the verifier refuses, stored without it) is PC_OVERFLOW, its gas a number", () => {
    // 0xcafe::t's `add` without its Ret: the code ends on the Add's result.
    const m = Result.getOrThrow(deserializeModule(testModuleBytes))
    const add = m.functionDefs.findIndex((d) => m.identifiers[m.functionHandles[d.function]!.name] === "add")
    const cut = serializeModule({
      ...m,
      functionDefs: m.functionDefs.map((d, i) =>
        i === add ? { ...d, code: { ...d.code!, code: d.code!.code.slice(0, -1) } } : d
      )
    })
    const cutView = {
      ...view,
      module: (a: Uint8Array, n: string) =>
        a[31] === 0xfe && n === "t" ? { bytes: cut, version: 2n } : view.module(a, n)
    }
    const o = new MoveVm().call(
      cutView,
      { module: { address: TEST_ADDRESS, name: "t" }, function: "add", tyArgs: [], args: [u64(1n), u64(2n)] },
      { maxGas: 1_000n }
    )
    expect(status(o)).toBe("PC_OVERFLOW")
    expect(Number.isFinite(Number(o.gasUsed))).toBe(true)
  })

  it("the argument count is checked", () => {
    expect(status(run("add", [u64(1n)]))).toBe("NUMBER_OF_ARGUMENTS_MISMATCH")
  })
})
