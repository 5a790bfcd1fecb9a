/**
 * The thread-wide module decoder: equal bytes (in different arrays, or the caller's array changed
 * afterwards) give the same `CompiledModule`; different bytes never do, even when their hashes
 * collide; refusals are not kept; the memo stays under its byte bound. And every `MoveVm` shares it.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { addressFromNumber } from "../../../src/domain/AccountAddress.js"
import { deserializeModule } from "../../../src/move/binary/deserialize.js"
import { MoveVm } from "../../../src/move/vm/MoveVm.js"
import { makeSharedModuleDecoder } from "../../../src/move/vm/sharedModuleDecoder.js"
import { genesisState } from "./genesisState.js"

const { view } = genesisState("devnet")
const ONE = addressFromNumber(1)
const bytesOf = (name: string) => view.module(ONE, name)!.bytes
const coin = bytesOf("coin")
const account = bytesOf("account")

describe("makeSharedModuleDecoder", () => {
  it("decodes equal bytes once, whatever array they come in", () => {
    const decode = makeSharedModuleDecoder(1 << 24)
    const first = decode(coin)
    expect(typeof first).toBe("object")
    const copy = coin.slice()
    expect(decode(copy) === first).toBe(true)
    copy[copy.length - 1] ^= 0xff // the memo kept its own copy
    expect(decode(coin) === first).toBe(true)
    expect(decode(account) === first).toBe(false)
    expect(decode(account) === decode(account.slice())).toBe(true)
  })

  it("a hash collision is told apart by the bytes", () => {
    const decode = makeSharedModuleDecoder(1 << 24, () => 7)
    const [small, big] = coin.length < account.length ? [coin, account] : [account, coin]
    // The same length as `big` and the same (constant) hash, other bytes: `small`'s module and zeros.
    const padded = new Uint8Array(big.length)
    padded.set(small)
    const a = decode(big)
    const b = decode(padded)
    expect(a === b).toBe(false)
    expect(decode(big) === a).toBe(true)
    expect(decode(padded.slice()) === b).toBe(true)
  })

  it("answers what deserializeModule answers, refusals included (not kept)", () => {
    const decode = makeSharedModuleDecoder(1 << 20)
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (garbage) => {
        const r = deserializeModule(garbage)
        const d = decode(garbage)
        if (r._tag === "Failure") expect(d).toBe(r.failure.message)
        else expect(typeof d).toBe("object")
      })
    )
    expect(decode.size()).toBe(0)
  })

  it("keeps at most maxBytes of modules, starting over when full", () => {
    const decode = makeSharedModuleDecoder(coin.length + account.length - 1)
    const a = decode(coin)
    expect(decode.size()).toBe(coin.length)
    decode(account) // does not fit with coin: the memo starts over with account
    expect(decode.size()).toBe(account.length)
    expect(decode(coin) === a).toBe(false)
    const tiny = makeSharedModuleDecoder(10)
    tiny(coin)
    expect(tiny.size()).toBe(0)
  })
})

describe("MoveVm", () => {
  it("every VM of the thread shares the decoded modules", () => {
    const [x, y] = [new MoveVm(), new MoveVm()]
    const load = (vm: MoveVm) => vm.loader.withView(view, () => vm.loader.load(ONE, "coin").cm)
    // Identity compared as booleans: a failing toBe would diff two whole modules.
    expect(load(x) === load(y)).toBe(true)
    const loaded = (vm: MoveVm) => vm.loader.withView(view, () => vm.loader.load(ONE, "coin"))
    expect(loaded(x) === loaded(y)).toBe(false)
  })
})
