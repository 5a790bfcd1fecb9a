/**
 * A ledger of many blocks read through the HTTP API. Real signed user transactions (sequence
 * number and orderless) are committed through the ledger's writer into LMDB with a pruning window,
 * then: transaction_summaries paging (both bounds, the CURSOR header), `replay_protector` JSON,
 * hashes, BCS summaries, 410 `version_pruned` below the window, balances at older versions. The
 * transactions are also read back by the TypeScript SDK, so their bytes and signatures are the
 * chain's and not only ours.
 */
import {
  Deserializer,
  Ed25519PublicKey,
  Ed25519Signature,
  generateSigningMessageForTransaction,
  SignedTransaction,
  SimpleTransaction,
  TransactionAuthenticatorEd25519
} from "@aptos-labs/ts-sdk"
import { sha3_256 } from "@noble/hashes/sha3.js"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Bcs, BcsReader, toHex, toHex0x } from "../../src/bcs/index.js"
import type { AccountAddress } from "../../src/domain/AccountAddress.js"
import type { Transaction } from "../../src/domain/Transaction.js"
import { transactionCodec } from "../../src/domain/TransactionCodec.js"
import type { BlockInfo, TransactionToCommit } from "../../src/ledger/Ledger.js"
import { account, block, coinStoreWrite, committed, signedTransfer } from "./chain.js"
import { makeNodeConfig } from "../../src/node/NodeConfig.js"
import { startWritableNode, type WritableNode } from "./harness.js"

const WINDOW = 40n
const BLOCKS = 12
const A = account(1)
const B = account(2)

/** The API's address form: `0x` + lowercase hex, leading zeros stripped. */
const short = (a: AccountAddress): string => `0x${toHex(a).replace(/^0+/, "") || "0"}`

/** sha3(sha3("APTOS::Transaction") ‖ BCS(Transaction)): the reference's transaction hash. */
const TX_PREFIX = sha3_256(new TextEncoder().encode("APTOS::Transaction"))
const hashOf = (bcs: Uint8Array): string => toHex0x(sha3_256(Uint8Array.from([...TX_PREFIX, ...bcs])))

interface Expected {
  readonly sender: string
  readonly version: string
  readonly transaction_hash: string
  readonly replay_protector: { type: "sequence_number"; sequence_number: string } | { type: "nonce"; nonce: string }
}

let node: WritableNode
const blocks: Array<BlockInfo> = []
const summaries: Array<Expected> = []
const users: Array<Transaction> = []
let oldest: bigint
let latest: bigint

const get = (path: string, accept?: string) =>
  fetch(`${node.url}${path}`, accept === undefined ? {} : { headers: { accept } })
const json = async <A>(path: string): Promise<A> => {
  const r = await get(path)
  expect(r.status, path).toBe(200)
  return (await r.json()) as A
}

beforeAll(async () => {
  node = await startWritableNode({ pruneWindow: WINDOW })
  // Genesis ends epoch 0; the blocks after it are epoch 1.
  const epoch = (await Effect.runPromise(node.handle.service.ledgerInfo)).epoch + 1n
  // Block h: metadata, A by sequence number (twice), A orderless, B by sequence number, epilogue.
  // A's CoinStore<AptosCoin> is written in blocks 8, 10 and 11.
  const coin: Record<number, bigint> = { 8: 1000n, 10: 700n, 11: 250n }
  for (let h = 1; h <= BLOCKS; h++) {
    const txns = [
      signedTransfer(A, { sequenceNumber: BigInt(2 * h - 2) }, 100n),
      signedTransfer(A, { sequenceNumber: BigInt(2 * h - 1) }, 100n),
      signedTransfer(A, { nonce: BigInt(1000 + h) }, 100n),
      signedTransfer(B, { sequenceNumber: BigInt(h - 1) }, 100n)
    ]
    const toCommit: Array<TransactionToCommit> = txns.map((t, i) =>
      committed(t, i === 0 && coin[h] !== undefined ? [coinStoreWrite(A.address, coin[h]!)] : [])
    )
    const b = await Effect.runPromise(node.handle.service.commitBlock(block(epoch, BigInt(h), toCommit)))
    blocks.push(b)
    txns.forEach((t, i) => {
      users.push(t)
      const raw = t._tag === "UserTransaction" ? t.signed.rawTransaction : undefined
      const nonce = raw?.payload._tag === "PayloadV1" ? raw.payload.extraConfig.replayProtectionNonce : undefined
      summaries.push({
        sender: short(raw!.sender),
        version: String(b.firstVersion + 1n + BigInt(i)),
        transaction_hash: hashOf(Bcs.encode(transactionCodec, t)),
        replay_protector:
          nonce === undefined
            ? { type: "sequence_number", sequence_number: String(raw!.sequenceNumber) }
            : { type: "nonce", nonce: String(nonce) }
      })
    })
  }
  latest = blocks[blocks.length - 1]!.lastVersion
  // The reference's first viable block: the first block starting at or after latest + 1 - window.
  oldest = blocks.find((b) => b.firstVersion >= latest + 1n - WINDOW)!.firstVersion
})
afterAll(() => node.close())

const ofA = () => summaries.filter((s) => s.sender === short(A.address))
const inRange = (s: Expected, from: bigint, to: bigint) => BigInt(s.version) >= from && BigInt(s.version) <= to

describe("the committed transactions are the chain's", () => {
  it("the SDK reads each signed transaction from our BCS and verifies its signature", () => {
    expect(users.length).toBe(4 * BLOCKS)
    for (const t of users) {
      const bytes = Bcs.encode(transactionCodec, t).subarray(1) // past the UserTransaction variant
      const sdk = SignedTransaction.deserialize(new Deserializer(bytes))
      expect(sdk.bcsToBytes()).toEqual(bytes)
      const auth = sdk.authenticator as TransactionAuthenticatorEd25519
      expect(auth).toBeInstanceOf(TransactionAuthenticatorEd25519)
      const message = generateSigningMessageForTransaction(new SimpleTransaction(sdk.raw_txn))
      const publicKey = new Ed25519PublicKey(auth.public_key.toUint8Array())
      expect(
        publicKey.verifySignature({ message, signature: new Ed25519Signature(auth.signature.toUint8Array()) })
      ).toBe(true)
    }
  })
})

describe("ledger info and pruning window", () => {
  it("latest version, block-aligned oldest version within the window, in the body and the headers", async () => {
    const r = await get("/")
    const info = (await r.json()) as Record<string, unknown>
    expect(info.ledger_version).toBe(String(latest))
    expect(info.block_height).toBe(String(BLOCKS))
    expect(info.epoch).toBe("1")
    expect(info.oldest_ledger_version).toBe(String(oldest))
    expect(info.oldest_block_height).toBe(String(blocks.find((b) => b.firstVersion === oldest)!.height))
    expect(r.headers.get("x-aptos-ledger-oldest-version")).toBe(String(oldest))
    expect(r.headers.get("x-aptos-ledger-version")).toBe(String(latest))
  })
})

describe("transaction_summaries", () => {
  it("pages through [start, end] with limit and the CURSOR header", async () => {
    const end = blocks[10]!.firstVersion + 2n // inside block 11
    const expected = ofA().filter((s) => inRange(s, oldest, end))
    expect(expected.length).toBeGreaterThan(6)
    const got: Array<Expected> = []
    let start: bigint | undefined = oldest
    let pages = 0
    while (start !== undefined) {
      const r = await get(
        `/accounts/${toHex0x(A.address)}/transaction_summaries?start_version=${start}&end_version=${end}&limit=4`
      )
      expect(r.status).toBe(200)
      const page = (await r.json()) as Array<Expected>
      got.push(...page)
      const cursor = r.headers.get("x-aptos-cursor")
      if (page.length === 4) {
        expect(cursor).toBe(String(BigInt(page[3]!.version) + 1n))
        start = BigInt(cursor!)
      } else {
        expect(cursor).toBeNull()
        start = undefined
      }
      expect(++pages).toBeLessThan(20)
    }
    expect(got).toEqual(expected)
  })

  it("replay_protector: sequence_number and nonce objects; hashes are the transactions' hashes", async () => {
    const page = await json<Array<Expected>>(
      `/accounts/${short(A.address).slice(2)}/transaction_summaries?start_version=${oldest}&limit=3`
    )
    expect(page).toEqual(
      ofA()
        .filter((s) => BigInt(s.version) >= oldest)
        .slice(0, 3)
    )
    expect(page.map((s) => s.replay_protector.type).sort()).toEqual(["nonce", "sequence_number", "sequence_number"])
  })

  it("end_version alone: the most recent `limit` at or below it, ascending", async () => {
    const end = blocks[9]!.lastVersion
    const page = await json<Array<Expected>>(
      `/accounts/${toHex0x(A.address)}/transaction_summaries?end_version=${end}&limit=5`
    )
    expect(page).toEqual(
      ofA()
        .filter((s) => inRange(s, 0n, end))
        .slice(-5)
    )
  })

  it("no bounds: the most recent page; another sender's and an unknown account's are their own", async () => {
    expect(await json(`/accounts/${toHex0x(A.address)}/transaction_summaries?limit=2`)).toEqual(ofA().slice(-2))
    // The summaries of pruned versions are gone with them.
    expect(await json(`/accounts/${toHex0x(A.address)}/transaction_summaries`)).toEqual(
      ofA().filter((s) => BigInt(s.version) >= oldest)
    )
    const bOnly = await json<Array<Expected>>(
      `/accounts/${toHex0x(B.address)}/transaction_summaries?start_version=${oldest}`
    )
    expect(bOnly).toEqual(summaries.filter((s) => s.sender === short(B.address) && BigInt(s.version) >= oldest))
    expect(await json(`/accounts/0xdead0001/transaction_summaries`)).toEqual([])
  })

  it("BCS: the vector of IndexedTransactionSummary::V1, as the reference encodes it", async () => {
    const path = `/accounts/${toHex0x(A.address)}/transaction_summaries?start_version=${oldest}&limit=6`
    const r = await get(path, "application/x-bcs")
    expect(r.headers.get("content-type")).toBe("application/x-bcs")
    const reader = new BcsReader(new Uint8Array(await r.arrayBuffer()))
    const decoded: Array<Expected> = []
    const n = reader.length()
    for (let i = 0; i < n; i++) {
      expect(reader.u8()).toBe(0) // V1
      const sender = short(reader.fixed(32))
      const version = String(reader.u64())
      const transaction_hash = toHex0x(reader.bytesWithLength())
      const tag = reader.u8() // ReplayProtector: 0 Nonce, 1 SequenceNumber
      const value = String(reader.u64())
      decoded.push({
        sender,
        version,
        transaction_hash,
        replay_protector:
          tag === 0 ? { type: "nonce", nonce: value } : { type: "sequence_number", sequence_number: value }
      })
    }
    reader.expectEnd()
    expect(decoded).toEqual(await json(path))
    expect(decoded.length).toBe(6)
  })

  it("a bound below the oldest retained version: 410 version_pruned, with the oldest version in the headers", async () => {
    for (const q of [
      `start_version=${oldest - 1n}`,
      `end_version=${oldest - 1n}`,
      `start_version=0&end_version=${latest}`
    ]) {
      const r = await get(`/accounts/${toHex0x(A.address)}/transaction_summaries?${q}`)
      expect(r.status, q).toBe(410)
      const body = (await r.json()) as { error_code: string; message: string; vm_error_code: unknown }
      expect(body.error_code).toBe("version_pruned")
      expect(body.vm_error_code).toBeNull()
      expect(r.headers.get("x-aptos-ledger-oldest-version")).toBe(String(oldest))
      expect(r.headers.get("x-aptos-ledger-version")).toBe(String(latest))
    }
    const r = await get(`/accounts/${toHex0x(A.address)}/transaction_summaries?start_version=${oldest - 1n}`)
    expect(((await r.json()) as { message: string }).message).toBe(`Ledger version(${oldest - 1n}) has been pruned`)
  })
})

describe("versioned reads inside and below the window", () => {
  const APT = "0x1::aptos_coin::AptosCoin"
  it("balances at older versions", async () => {
    const at = async (v: bigint) =>
      (await get(`/accounts/${toHex0x(A.address)}/balance/${APT}?ledger_version=${v}`)).text()
    expect(await at(blocks[6]!.lastVersion)).toBe("0") // block 7: no store yet
    expect(await at(blocks[7]!.lastVersion)).toBe("1000")
    expect(await at(blocks[8]!.lastVersion)).toBe("1000")
    expect(await at(blocks[9]!.lastVersion)).toBe("700")
    expect(await at(latest)).toBe("250")
    expect(await (await get(`/accounts/${toHex0x(A.address)}/balance/${APT}`)).text()).toBe("250")
    // The store was written by the first user transaction of block 8: its own version already has it.
    expect(await at(blocks[7]!.firstVersion)).toBe("0")
    expect(await at(blocks[7]!.firstVersion + 1n)).toBe("1000")
  })

  it("the VM agrees: 0x1::coin::balance viewed at the same versions", async () => {
    const view = async (v: bigint) => {
      const r = await fetch(`${node.url}/view?ledger_version=${v}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ function: "0x1::coin::balance", type_arguments: [APT], arguments: [toHex0x(A.address)] })
      })
      expect(r.status, await r.clone().text()).toBe(200)
      return r.json()
    }
    expect(await view(blocks[7]!.lastVersion)).toEqual(["1000"])
    expect(await view(blocks[9]!.lastVersion)).toEqual(["700"])
    expect(await view(latest)).toEqual(["250"])
  })

  it("below the window: 410 for balance, module and view; above the latest: 404", async () => {
    const below = oldest - 1n
    const cases: Array<[string, RequestInit | undefined]> = [
      [`/accounts/${toHex0x(A.address)}/balance/${APT}?ledger_version=${below}`, undefined],
      [`/accounts/0x1/module/coin?ledger_version=${below}`, undefined],
      [
        `/view?ledger_version=${below}`,
        {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ function: "0x1::chain_id::get", type_arguments: [], arguments: [] })
        }
      ]
    ]
    for (const [path, init] of cases) {
      const r = await fetch(`${node.url}${path}`, init)
      expect(r.status, path).toBe(410)
      expect(((await r.json()) as { error_code: string }).error_code).toBe("version_pruned")
      expect(r.headers.get("x-aptos-ledger-oldest-version")).toBe(String(oldest))
    }
    const r = await get(`/accounts/0x1/module/coin?ledger_version=${latest + 1n}`)
    expect(r.status).toBe(404)
    expect(((await r.json()) as { error_code: string }).error_code).toBe("version_not_found")
    expect((await get(`/accounts/0x1/module/coin?ledger_version=${oldest}`)).status).toBe(200)
  })
})

describe("gas estimate over full and empty blocks", () => {
  // The 500 ms estimate cache is switched off so each request sees the blocks just committed.
  const config = makeNodeConfig({ gasEstimation: { cacheExpirationMs: 0 } })
  const estimate = async (n: WritableNode) => {
    const r = await fetch(`${n.url}/estimate_gas_price`)
    expect(r.status).toBe(200)
    return r.json()
  }
  /** `count` transfers by distinct accounts at `price`, the first at `cheapest`. */
  const fullOf = (count: number, price: bigint, cheapest: bigint, seedBase: number) =>
    Array.from({ length: count }, (_, i) =>
      committed(
        signedTransfer(
          account(((seedBase + i) % 250) + 3),
          { sequenceNumber: BigInt(seedBase) },
          i === 0 ? cheapest : price
        )
      )
    )

  let empty: WritableNode
  let full: WritableNode
  beforeAll(async () => {
    ;[empty, full] = await Promise.all([startWritableNode({ config }), startWritableNode({ config })])
  })
  afterAll(async () => {
    await empty.close()
    await full.close()
  })

  it("empty blocks: the on-chain minimum and its next bucket", async () => {
    expect(await estimate(empty)).toEqual({
      deprioritized_gas_estimate: 100,
      gas_estimate: 100,
      prioritized_gas_estimate: 150
    })
    for (let round = 1n; round <= 5n; round++)
      await Effect.runPromise(empty.handle.service.commitBlock(block(1n, round, [])))
    expect(await estimate(empty)).toEqual({
      deprioritized_gas_estimate: 100,
      gas_estimate: 100,
      prioritized_gas_estimate: 150
    })
  })

  it("full blocks (250 user transactions): next bucket above each block's cheapest price", async () => {
    // Three full blocks (cheapest 160 → bucket 300), then a partial latest block, which is skipped.
    for (let round = 1n; round <= 3n; round++)
      await Effect.runPromise(full.handle.service.commitBlock(block(1n, round, fullOf(250, 200n, 160n, Number(round)))))
    await Effect.runPromise(full.handle.service.commitBlock(block(1n, 4n, fullOf(10, 5000n, 5000n, 9))))
    expect(await estimate(full)).toEqual({
      deprioritized_gas_estimate: 300,
      gas_estimate: 300,
      prioritized_gas_estimate: 500
    })
    // 249 user transactions is not full: the block counts at the minimum price (100).
    await Effect.runPromise(full.handle.service.commitBlock(block(1n, 5n, fullOf(249, 200n, 160n, 20))))
    await Effect.runPromise(full.handle.service.commitBlock(block(1n, 6n, [])))
    // Newest first: [100 (round 5), 5000 → not full: 100 (round 4), 300, 300, 300]:
    // low = min = 100, market = upper median of the five = 300, aggressive = bucket(p90 = 300) = 500.
    expect(await estimate(full)).toEqual({
      deprioritized_gas_estimate: 100,
      gas_estimate: 300,
      prioritized_gas_estimate: 500
    })
  })
})
