/**
 * SHA3-256 (FIPS 202) of short inputs in WebAssembly: the Keccak-f[1600] sponge over 64-bit lanes
 * held in the function's locals. The module is emitted here, byte by byte (about 1.2 KB), and
 * instantiated once per thread; `sha3Wasm` is undefined where the host has no WebAssembly (node
 * `--jitless`), and `hash.ts` then uses node:crypto.
 *
 * Why: a committed transfer costs the chain's thread ~27 SHA3-256 hashes, 22 of them of at most 136
 * bytes (the transaction accumulator's root after each transaction is ~15: one hash per level of
 * the tree), ~3 more in the index's thread and 1 in admission's (docs/benchmarks.md, session 15).
 * node:crypto's one-shot `hash` costs ~0.9 µs of a 96-byte input and hands back a `Buffer` whose
 * bytes live outside V8's heap (a malloc, a backing store to register, sweep and free); here 0.40
 * µs and the digest is a 32-byte array inside the heap. Measured per hash (1M calls, CPU of every
 * thread, session 15): 32 B 0.99 → 0.39 µs, 96 B 1.03 → 0.40, 200 B 1.22 → 0.66, 300 B 1.39 → 0.96,
 * 700 B 2.15 → 1.81, 1,500 B 3.55 → 3.57, 4,000 B 7.44 → 8.68; hence `WASM_MAX_INPUT`.
 *
 * Not re-entrant (one input buffer per thread); nothing here yields. Checked against node:crypto and
 * @noble/hashes by test/domain/sha3Wasm.test.ts.
 */
import { KECCAK_ROUND_CONSTANTS } from "./sha3Js.js"

/** Inputs up to this many bytes are hashed here; longer ones by node:crypto (as fast or faster there). */
export const WASM_MAX_INPUT = 1024

const RATE = 136
/** Memory layout: the digest at 0 (32 bytes), the round constants at 256, the padded input at 512 (to 1,600 at most), `nodeHashing`'s block at 2,048. */
const DIGEST = 0
const ROUND_CONSTANTS = 256
const INPUT = 512

/** ρ offsets by lane (x, y): `ROTATIONS[x][y]`. */
const ROTATIONS: ReadonlyArray<ReadonlyArray<number>> = [
  [0, 36, 3, 41, 18],
  [1, 44, 10, 45, 2],
  [62, 6, 43, 15, 61],
  [28, 55, 25, 21, 56],
  [27, 20, 39, 8, 14]
]

const uleb = (n: number): number[] => {
  const out: number[] = []
  do {
    let b = n & 0x7f
    n >>>= 7
    if (n !== 0) b |= 0x80
    out.push(b)
  } while (n !== 0)
  return out
}

const sleb = (n: number): number[] => {
  const out: number[] = []
  for (;;) {
    const b = n & 0x7f
    n >>= 7
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
      out.push(b)
      return out
    }
    out.push(b | 0x80)
  }
}

const vector = (items: ReadonlyArray<ReadonlyArray<number>>): number[] => [...uleb(items.length), ...items.flat()]
const section = (id: number, bytes: ReadonlyArray<number>): number[] => [id, ...uleb(bytes.length), ...bytes]
const name = (s: string): number[] => [...uleb(s.length), ...Array.from(s, (c) => c.charCodeAt(0))]

// The opcodes used (WebAssembly 1.0).
const op = {
  block: 0x02,
  loop: 0x03,
  br: 0x0c,
  brIf: 0x0d,
  end: 0x0b,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  i64Load: 0x29,
  i64Store: 0x37,
  i32Const: 0x41,
  i64Const: 0x42,
  i32Eqz: 0x45,
  i32Ne: 0x47,
  i32Add: 0x6a,
  i32Sub: 0x6b,
  i64And: 0x83,
  i64Xor: 0x85,
  i64Rotl: 0x89,
  void: 0x40,
  i32: 0x7f,
  i64: 0x7e
} as const

/**
 * `absorb(input, blocks)`: the sponge over `blocks` whole blocks of padded input at `input`, the
 * first four lanes (the digest) stored at `DIGEST`. Locals: the two parameters, the round's offset
 * into the constants, then the lanes A (25), the permuted lanes B (25), the column parities C (5)
 * and their mixes D (5), all i64.
 */
const absorbFunction = (): number[] => {
  const INPUT_AT = 0
  const BLOCKS = 1
  const ROUND = 2
  const a = (i: number) => 3 + i
  const b = (i: number) => 28 + i
  const c = (i: number) => 53 + i
  const d = (i: number) => 58 + i
  const code: number[] = []
  const emit = (...parts: ReadonlyArray<number | ReadonlyArray<number>>) => {
    for (const p of parts) typeof p === "number" ? code.push(p) : code.push(...p)
  }
  const get = (local: number) => [op.localGet, ...uleb(local)]
  const set = (local: number) => [op.localSet, ...uleb(local)]
  const i64 = (n: number) => [op.i64Const, ...sleb(n)]
  const i32 = (n: number) => [op.i32Const, ...sleb(n)]
  const load64 = (offset: number) => [op.i64Load, 3, ...uleb(offset)]

  emit(op.block, op.void, op.loop, op.void)
  emit(get(BLOCKS), op.i32Eqz, op.brIf, 1)
  // Absorb: the block's 17 lanes into the state.
  for (let k = 0; k < RATE / 8; k++) emit(get(a(k)), get(INPUT_AT), load64(8 * k), op.i64Xor, set(a(k)))
  emit(i32(0), set(ROUND), op.loop, op.void)
  // θ: each column's parity, mixed into its neighbours.
  for (let x = 0; x < 5; x++) {
    emit(get(a(x)), get(a(x + 5)), op.i64Xor, get(a(x + 10)), op.i64Xor, get(a(x + 15)), op.i64Xor)
    emit(get(a(x + 20)), op.i64Xor, set(c(x)))
  }
  for (let x = 0; x < 5; x++) emit(get(c((x + 4) % 5)), get(c((x + 1) % 5)), i64(1), op.i64Rotl, op.i64Xor, set(d(x)))
  // ρ and π: lane (x, y), mixed and rotated, moves to (y, 2x + 3y).
  for (let x = 0; x < 5; x++)
    for (let y = 0; y < 5; y++) {
      emit(get(a(x + 5 * y)), get(d(x)), op.i64Xor)
      const r = ROTATIONS[x]![y]!
      if (r !== 0) emit(i64(r), op.i64Rotl)
      emit(set(b(y + 5 * ((2 * x + 3 * y) % 5))))
    }
  // χ: each lane with the next two of its row.
  for (let y = 0; y < 5; y++)
    for (let x = 0; x < 5; x++) {
      emit(get(b(x + 5 * y)), get(b(((x + 1) % 5) + 5 * y)), i64(-1), op.i64Xor)
      emit(get(b(((x + 2) % 5) + 5 * y)), op.i64And, op.i64Xor, set(a(x + 5 * y)))
    }
  // ι: the round's constant; 24 rounds.
  emit(get(a(0)), get(ROUND), load64(ROUND_CONSTANTS), op.i64Xor, set(a(0)))
  emit(get(ROUND), i32(8), op.i32Add, op.localTee, ...uleb(ROUND), i32(24 * 8), op.i32Ne, op.brIf, 0, op.end)
  // The next block.
  emit(get(INPUT_AT), i32(RATE), op.i32Add, set(INPUT_AT), get(BLOCKS), i32(1), op.i32Sub, set(BLOCKS))
  emit(op.br, 0, op.end, op.end)
  for (let k = 0; k < 4; k++) emit(i32(0), get(a(k)), op.i64Store, 3, ...uleb(DIGEST + 8 * k))
  emit(op.end)
  const locals = vector([
    [...uleb(1), op.i32],
    [...uleb(60), op.i64]
  ])
  return [...locals, ...code]
}

/** A constant expression (a data segment's offset). */
const i32Expr = (n: number): number[] => [op.i32Const, ...sleb(n), op.end]

const moduleBytes = (): Uint8Array => {
  const constants = new Uint8Array(24 * 8)
  const view = new DataView(constants.buffer)
  // Each constant's low then high 32 bits, little-endian: the lane's bytes in memory.
  for (let i = 0; i < 48; i++) view.setInt32(4 * i, KECCAK_ROUND_CONSTANTS[i]!, true)
  const body = absorbFunction()
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector([[0x60, ...vector([[op.i32], [op.i32]]), ...vector([])]])),
    ...section(3, vector([[0]])),
    ...section(5, vector([[0x00, 1]])),
    ...section(
      7,
      vector([
        [...name("memory"), 0x02, 0],
        [...name("absorb"), 0x00, 0]
      ])
    ),
    ...section(10, vector([[...uleb(body.length), ...body]])),
    ...section(11, vector([[0x00, ...i32Expr(ROUND_CONSTANTS), ...vector(Array.from(constants, (x) => [x]))]]))
  ])
}

/** The part of the WebAssembly API used here (the project's TypeScript libraries do not declare it). */
interface WasmApi {
  readonly Module: new (bytes: Uint8Array) => object
  readonly Instance: new (module: object, imports: object) => { readonly exports: Record<string, unknown> }
}

const instantiate = ():
  | { readonly memory: Uint8Array; readonly absorb: (input: number, blocks: number) => void }
  | undefined => {
  try {
    const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly
    if (wasm === undefined) return undefined
    const { exports } = new wasm.Instance(new wasm.Module(moduleBytes()), {})
    const memory = exports.memory as { readonly buffer: ArrayBuffer }
    return { memory: new Uint8Array(memory.buffer), absorb: exports.absorb as (input: number, blocks: number) => void }
  } catch {
    return undefined
  }
}

const instance = instantiate()

/** Where `nodeHashing` keeps its one padded block (after the longest general input ends: 1,600). */
const NODE = 2048
const NODE_SIZE = 96

/**
 * SHA3-256 of 96-byte inputs `prefix ‖ left ‖ right` (a Merkle tree's internal node), step by step
 * along a path, the last digest left in the module's memory: what `MerkleAccumulator` hashes ~20
 * times a committed transaction. Its block's padding is written once (no input is longer than one
 * block), and a digest that is the next node's child is copied within the memory, not out of it and
 * back: a path of nodes costs one array, its root (the general `sha3Wasm` costs one a node, and a
 * copy of its parts and padding). Not re-entrant, as `sha3Wasm`; `digest` is valid until the next
 * hash of either.
 */
export interface NodeHashing {
  /** The 32-byte prefix of the nodes hashed next (the hasher's `hashPrefix`). */
  readonly prefix: (prefix: Uint8Array) => void
  /** The digest becomes sha3(prefix ‖ left ‖ right). */
  readonly node: (left: Uint8Array, right: Uint8Array) => void
  /** The digest becomes sha3(prefix ‖ left ‖ digest): the digest as the right child. */
  readonly nodeLeftOfDigest: (left: Uint8Array) => void
  /** The digest becomes sha3(prefix ‖ digest ‖ right): the digest as the left child. */
  readonly nodeRightOfDigest: (right: Uint8Array) => void
  /** The digest, as an array the caller keeps (later hashes do not change it). */
  readonly digest: () => Uint8Array
}

export const nodeHashing: NodeHashing | undefined =
  instance === undefined
    ? undefined
    : (() => {
        const { memory, absorb } = instance
        memory.fill(0, NODE + NODE_SIZE, NODE + RATE)
        memory[NODE + NODE_SIZE] = 0x06
        memory[NODE + RATE - 1]! |= 0x80
        return {
          prefix: (prefix) => memory.set(prefix, NODE),
          node: (left, right) => {
            memory.set(left, NODE + 32)
            memory.set(right, NODE + 64)
            absorb(NODE, 1)
          },
          nodeLeftOfDigest: (left) => {
            memory.copyWithin(NODE + 64, DIGEST, DIGEST + 32)
            memory.set(left, NODE + 32)
            absorb(NODE, 1)
          },
          nodeRightOfDigest: (right) => {
            memory.copyWithin(NODE + 32, DIGEST, DIGEST + 32)
            memory.set(right, NODE + 64)
            absorb(NODE, 1)
          },
          digest: () => memory.slice(DIGEST, DIGEST + 32)
        }
      })()

/**
 * SHA3-256 of the concatenation of `parts` (`total` bytes, at most `WASM_MAX_INPUT`), or undefined
 * without WebAssembly. The digest is a fresh 32-byte `Uint8Array`.
 */
export const sha3Wasm: ((parts: ReadonlyArray<Uint8Array>, total: number) => Uint8Array) | undefined =
  instance === undefined
    ? undefined
    : (parts, total) => {
        if (total > WASM_MAX_INPUT) throw new RangeError(`sha3Wasm takes at most ${WASM_MAX_INPUT} bytes, not ${total}`)
        const { memory, absorb } = instance
        const blocks = Math.floor(total / RATE) + 1
        const end = INPUT + blocks * RATE
        let at = INPUT
        for (const p of parts) {
          memory.set(p, at)
          at += p.length
        }
        // FIPS 202 padding: the domain bits 01, then 10*1 to the end of the block.
        memory.fill(0, at, end)
        memory[at] = 0x06
        memory[end - 1]! |= 0x80
        absorb(INPUT, blocks)
        return memory.slice(DIGEST, DIGEST + 32)
      }
