/**
 * Runaway views end quickly with a 400 `invalid_input` through the view service core (`runView`,
 * what `ViewsVmLayer` runs per request): an endless loop stops at the wall-clock deadline or the
 * branch limit, endless vector growth at the deadline or the memory quota (`txn.memory_quota`).
 * Clocks are injected, so nothing here depends on how fast the machine is.
 */
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { BcsWriter } from "../../../src/bcs/index.js"
import { serializeModule } from "../../../src/move/binary/serialize.js"
import type { ModuleSource } from "../../../src/move/layout/ModuleSource.js"
import { METADATA_V1_KEY } from "../../../src/move/metadata/decodeMetadata.js"
import { DEFAULT_VIEW_DEADLINE_MS, MoveVm } from "../../../src/move/vm/MoveVm.js"
import type { StateView } from "../../../src/move/vm/StateView.js"
import { StatusCodes } from "../../../src/move/vm/StatusCode.js"
import { defaultNodeConfig } from "../../../src/node/NodeConfig.js"
import type { BcsViewCall } from "../../../src/node/view/parseViewRequest.js"
import { runView, type ViewFailure } from "../../../src/node/view/runView.js"
import { genesisState } from "../../move/vm/genesisState.js"
import { TEST_ADDRESS, testModule } from "../../move/vm/testModule.js"

/** `aptos::metadata_v1` marking `grow` and `spin` as `#[view]` (attribute kind 1). */
const viewMetadata = (() => {
  const w = new BcsWriter()
  w.uleb128(0) // error map
  w.uleb128(0) // struct attributes
  w.uleb128(2) // function attributes, keys ascending
  for (const name of ["grow", "spin"]) {
    w.string(name)
    w.uleb128(1)
    w.u8(1)
    w.uleb128(0)
  }
  return w.toBytes()
})()

const moduleBytes = serializeModule({
  ...testModule,
  metadata: [{ key: new TextEncoder().encode(METADATA_V1_KEY), value: viewMetadata }]
})

const base = genesisState("devnet").view
const state: StateView = {
  ...base,
  module: (address, name) =>
    address[30] === 0xca && address[31] === 0xfe && name === "t"
      ? { bytes: moduleBytes, version: 1n }
      : base.module(address, name)
}

const call = (fn: string, args: Uint8Array[]): BcsViewCall => ({
  _tag: "Bcs",
  module: { address: TEST_ADDRESS, name: "t" },
  function: fn,
  tyArgs: [],
  args
})
const growArg = [new BcsWriter().u64(1n << 40n).toBytes()]

const fail = (vm: MoveVm, c: BcsViewCall, now: () => number): ViewFailure => {
  const modules: ModuleSource = (address, name) => vm.loader.withView(state, () => vm.loader.tryLoad(address, name)?.cm)
  const r = runView(vm, state, modules, c, defaultNodeConfig.viewGasBudget, { now })
  if (Result.isSuccess(r)) throw new Error("expected the view to fail")
  return r.failure
}

/** A clock that moves `step` ms each time it is read; counts its reads. */
const steppingClock = (step: number) => {
  const clock = { reads: 0, now: () => clock.reads++ * step }
  return clock
}

describe("runaway views", () => {
  it("an endless loop stops at the deadline with a 400 EXECUTION_LIMIT_REACHED", () => {
    const clock = steppingClock(1)
    const f = fail(new MoveVm(), call("spin", []), clock.now)
    expect(f.status).toBe(400)
    expect(f.code).toBe("invalid_input")
    expect(f.vmErrorCode).toBe(BigInt(StatusCodes.EXECUTION_LIMIT_REACHED))
    expect(f.message).toContain("time limit")
    // One read at the start, one per slice until the clock passes the deadline.
    expect(clock.reads).toBe(DEFAULT_VIEW_DEADLINE_MS + 2)
  })

  it("an endless loop under a frozen clock still stops, at the branch limit", () => {
    const f = fail(new MoveVm(), call("spin", []), () => 0)
    expect(f.status).toBe(400)
    expect(f.vmErrorCode).toBe(BigInt(StatusCodes.EXECUTION_LIMIT_REACHED))
    expect(f.message).toContain("too many branches")
  })

  it("endless vector growth stops at the deadline", () => {
    // 10 ms a slice: the deadline passes after 6 slices (~390k pushes), before the quota (1.25M u64s).
    const f = fail(new MoveVm(), call("grow", growArg), steppingClock(10).now)
    expect(f.status).toBe(400)
    expect(f.vmErrorCode).toBe(BigInt(StatusCodes.EXECUTION_LIMIT_REACHED))
  })

  it("endless vector growth under a frozen clock stops at the memory quota (MEMORY_LIMIT_EXCEEDED)", () => {
    const f = fail(new MoveVm(), call("grow", growArg), () => 0)
    expect(f.status).toBe(400)
    expect(f.code).toBe("invalid_input")
    expect(f.vmErrorCode).toBe(BigInt(StatusCodes.MEMORY_LIMIT_EXCEEDED))
    expect(StatusCodes.MEMORY_LIMIT_EXCEEDED).toBe(4028)
    expect(f.message).toContain("MEMORY_LIMIT_EXCEEDED")
  })

  it("a bounded vector growth well inside the quota succeeds", () => {
    const vm = new MoveVm()
    const modules: ModuleSource = (address, name) =>
      vm.loader.withView(state, () => vm.loader.tryLoad(address, name)?.cm)
    const r = runView(vm, state, modules, call("grow", [new BcsWriter().u64(10_000n).toBytes()]), 2_000_000n, {
      now: () => 0
    })
    expect(Result.isSuccess(r)).toBe(true)
  })
})
