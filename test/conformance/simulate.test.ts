/**
 * `POST /v1/transactions/simulate` through the TypeScript SDK (`aptos.transaction.simulate.*`)
 * against the real `movenode run` stack on the devnet genesis, simulating as 0xa550c18 (whose key
 * nobody has: the SDK sends a NoAccountAuthenticator) and as accounts made here; and the
 * endpoint's own rules over plain HTTP (a valid signature refused, bad bodies, the gas header,
 * the query flags).
 */
import {
  Account,
  AccountAddress,
  type AccountAuthenticatorEd25519,
  Aptos,
  AptosConfig,
  Ed25519PrivateKey,
  Network,
  type SimpleTransaction,
  U64,
  type UserTransactionResponse
} from "@aptos-labs/ts-sdk"
import * as Effect from "effect/Effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MovenodeClient } from "../../src/http/MovenodeClient.js"
import { counterModule, packageMetadata, transferScript } from "../execution/bytecode.js"
import { type RunningNode, startRun } from "./harness.js"

const ROOT = "0xa550c18"
/** The SDK takes only the long form of non-special addresses (AIP-40). */
const ROOT_LONG = `0x${"a550c18".padStart(64, "0")}`
const U64_MAX = 18446744073709551615n

let node: RunningNode
let aptos: Aptos
beforeAll(async () => {
  node = await startRun("devnet")
  aptos = new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: node.url }))
})
afterAll(() => node.close())

const transfer = (sender: string, to: AccountAddress, amount: number | bigint, options = {}) =>
  aptos.transaction.build.simple({
    sender,
    data: { function: "0x1::aptos_account::transfer", functionArguments: [to, amount] },
    options: { maxGasAmount: 20_000, ...options }
  })

type Change = UserTransactionResponse["changes"][number]
const eventOf = (r: UserTransactionResponse, type: string) => r.events.filter((e) => e.type === type)

/** The FungibleStore members of the ObjectGroup writes in `changes`, by object address. */
const stores = (changes: ReadonlyArray<Change>): Map<string, { balance: string }> => {
  const out = new Map<string, { balance: string }>()
  for (const c of changes) {
    const w = c as { type: string; address?: string; data?: { type?: string; data?: unknown } }
    if (w.type === "write_resource" && w.data?.type === "0x1::fungible_asset::FungibleStore")
      out.set(w.address!, w.data.data as { balance: string })
  }
  return out
}

describe("aptos.transaction.simulate.simple as 0xa550c18", () => {
  it("an APT transfer to a new account: success, the recipient's store holds the amount, the fee statement is gas_used", async () => {
    const to = Account.generate().accountAddress
    const [r] = await aptos.transaction.simulate.simple({ transaction: await transfer(ROOT_LONG, to, 1234) })
    expect(r!.type).toBe("user_transaction")
    expect(r!.success).toBe(true)
    expect(r!.vm_status).toBe("Executed successfully")
    expect(r!.state_change_hash).toBe(`0x${"0".repeat(64)}`)
    expect(r!.accumulator_root_hash).toBe(`0x${"0".repeat(64)}`)
    expect(r!.sender).toBe(ROOT)
    const gasUsed = BigInt(r!.gas_used)
    expect(gasUsed).toBeGreaterThan(0n)

    const deposit = eventOf(r!, "0x1::fungible_asset::Deposit")
    expect(deposit).toHaveLength(1)
    expect(deposit[0]!.data.amount).toBe("1234")
    const fee = r!.events[r!.events.length - 1]!
    expect(fee.type).toBe("0x1::transaction_fee::FeeStatement")
    expect(fee.data.total_charge_gas_units).toBe(r!.gas_used)

    // The recipient's new primary store holds the amount; the sender's holds what is left.
    const balances = [...stores(r!.changes).values()].map((s) => BigInt(s.balance))
    expect(balances).toContain(1234n)
    expect(balances).toContain(U64_MAX - 1234n - gasUsed * BigInt(r!.gas_unit_price))
  })

  it("the balance after the simulation is unchanged (nothing committed)", async () => {
    const to = Account.generate().accountAddress
    await aptos.transaction.simulate.simple({ transaction: await transfer(ROOT_LONG, to, 5) })
    expect(await aptos.getAccountAPTAmount({ accountAddress: to })).toBe(0)
  })

  it("estimates: max gas from the balance, the market price", async () => {
    const to = Account.generate().accountAddress
    const [r] = await aptos.transaction.simulate.simple({
      transaction: await transfer(ROOT_LONG, to, 1, { gasUnitPrice: 150 }),
      options: { estimateMaxGasAmount: true, estimateGasUnitPrice: true }
    })
    expect(r!.success).toBe(true)
    expect(r!.max_gas_amount).toBe("20000000") // u64::MAX / price, capped at the schedule's maximum
    expect(r!.gas_unit_price).toBe("100") // the devnet minimum: no full blocks
  })

  it("an expired transaction shows TRANSACTION_EXPIRED (discarded: no gas, no changes)", async () => {
    const to = Account.generate().accountAddress
    const [r] = await aptos.transaction.simulate.simple({
      transaction: await transfer(ROOT_LONG, to, 1, { expireTimestamp: 0 })
    })
    expect(r!.success).toBe(false)
    expect(r!.vm_status).toBe("TRANSACTION_EXPIRED")
    expect(r!.gas_used).toBe("0")
    expect(r!.changes).toEqual([])
  })

  it("a wrong sequence number shows SEQUENCE_NUMBER_TOO_NEW", async () => {
    const to = Account.generate().accountAddress
    const [r] = await aptos.transaction.simulate.simple({
      transaction: await transfer(ROOT_LONG, to, 1, { accountSequenceNumber: 9 })
    })
    expect(r!.vm_status).toBe("SEQUENCE_NUMBER_TOO_NEW")
  })
})

describe("aptos.transaction.simulate as accounts without funds", () => {
  it("INSUFFICIENT_BALANCE_FOR_TRANSACTION_FEE for a sender without APT", async () => {
    const poor = Account.generate()
    const [r] = await aptos.transaction.simulate.simple({
      signerPublicKey: poor.publicKey,
      transaction: await transfer(poor.accountAddress.toString(), Account.generate().accountAddress, 1)
    })
    expect(r!.vm_status).toContain("INSUFFICIENT_BALANCE_FOR_TRANSACTION_FEE")
  })

  it("multi-agent: an entry function taking one signer given two is NUMBER_OF_SIGNER_ARGUMENTS_MISMATCH", async () => {
    const second = Account.generate()
    const txn = await aptos.transaction.build.multiAgent({
      sender: ROOT_LONG,
      secondarySignerAddresses: [second.accountAddress],
      data: { function: "0x1::aptos_account::transfer", functionArguments: [Account.generate().accountAddress, 1] },
      options: { maxGasAmount: 20_000 }
    })
    const [r] = await aptos.transaction.simulate.multiAgent({ transaction: txn })
    expect(r!.success).toBe(false)
    expect(r!.vm_status).toContain("NUMBER_OF_SIGNER_ARGUMENTS_MISMATCH")
  })

  // The devnet genesis clock stands at 0 s: an orderless transaction must expire within 100 s of it.
  const orderless = (expireTimestamp: number) =>
    aptos.transaction.build.simple({
      sender: ROOT_LONG,
      data: { function: "0x1::aptos_account::transfer", functionArguments: [Account.generate().accountAddress, 7] },
      options: { maxGasAmount: 20_000, replayProtectionNonce: 12345, expireTimestamp }
    })

  it("an orderless transaction (replay protection nonce) simulates", async () => {
    const [r] = await aptos.transaction.simulate.simple({ transaction: await orderless(50) })
    expect(r!.replay_protection_nonce).toBe("12345")
    expect(r!.vm_status).toBe("Executed successfully")
    const [far] = await aptos.transaction.simulate.simple({ transaction: await orderless(1000) })
    expect(far!.vm_status).toBe("TRANSACTION_EXPIRATION_TOO_FAR_IN_FUTURE")
  })
})

describe("payload kinds through the SDK", () => {
  it("a transfer of more than the balance (fee paid by 0xa550c18): Move abort with the error map's name", async () => {
    const poor = Account.generate()
    const txn = await aptos.transaction.build.simple({
      sender: poor.accountAddress,
      withFeePayer: true,
      data: { function: "0x1::aptos_account::transfer", functionArguments: [Account.generate().accountAddress, 100] },
      options: { maxGasAmount: 20_000 }
    })
    txn.feePayerAddress = AccountAddress.from(ROOT_LONG)
    const [r] = await aptos.transaction.simulate.simple({ signerPublicKey: poor.publicKey, transaction: txn })
    expect(r!.success).toBe(false)
    expect(r!.vm_status).toMatch(/^Move abort in 0x1::\w+: E[A-Z_]+\(0x[0-9a-f]+\): .+/)
    expect(BigInt(r!.gas_used)).toBeGreaterThan(0n)
  })

  it("a script: main(&signer, u64, address) transferring APT", async () => {
    const to = Account.generate().accountAddress
    const txn = await aptos.transaction.build.simple({
      sender: ROOT_LONG,
      data: { bytecode: transferScript, functionArguments: [new U64(77), to] },
      options: { maxGasAmount: 20_000 }
    })
    const [r] = await aptos.transaction.simulate.simple({ transaction: txn })
    expect(r!.vm_status).toBe("Executed successfully")
    expect(r!.payload.type).toBe("script_payload")
    expect(eventOf(r!, "0x1::fungible_asset::Deposit")[0]!.data.amount).toBe("77")
  })

  it("a module publish (0x1::code::publish_package_txn): the module is among the changes", async () => {
    const txn = await aptos.publishPackageTransaction({
      account: ROOT_LONG,
      metadataBytes: packageMetadata("counter", ["counter"]),
      moduleBytecode: [counterModule(AccountAddress.from(ROOT_LONG).toUint8Array())],
      options: { maxGasAmount: 200_000 }
    })
    const [r] = await aptos.transaction.simulate.simple({ transaction: txn })
    expect(r!.vm_status).toBe("Executed successfully")
    const module = r!.changes.find((c) => c.type === "write_module") as { data: { abi: { name: string } } } | undefined
    expect(module?.data.abi.name).toBe("counter")
  })
})

describe("the endpoint's own rules", () => {
  const post = (body: Uint8Array, query = "", type = "application/x.aptos.signed_transaction+bcs") =>
    fetch(`${node.url}/transactions/simulate${query}`, { method: "POST", headers: { "content-type": type }, body })

  it("a transaction with a valid signature is refused (400)", async () => {
    const signer = Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(new Uint8Array(32).fill(5)) })
    const txn = await transfer(signer.accountAddress.toString(), Account.generate().accountAddress, 1)
    const senderAuthenticator = aptos.transaction.sign({ signer, transaction: txn })
    const { generateSignedTransaction } = await import("@aptos-labs/ts-sdk")
    const res = await post(generateSignedTransaction({ transaction: txn, senderAuthenticator }))
    expect(res.status).toBe(400)
    const body = (await res.json()) as unknown
    expect(body).toEqual({
      message: "Simulated transactions must not have a valid signature",
      error_code: "invalid_input",
      vm_error_code: null
    })
    expect(res.headers.get("x-aptos-ledger-version")).not.toBeNull()
  })

  it("garbage is a 400 invalid_input, another body type a 415, a bad flag a 400", async () => {
    const garbage = await post(new Uint8Array([1, 2, 3]))
    expect(garbage.status).toBe(400)
    expect(((await garbage.json()) as { error_code: string }).error_code).toBe("invalid_input")
    expect((await post(new Uint8Array([123]), "", "text/plain")).status).toBe(415)
    const flag = await post(new Uint8Array([0]), "?estimate_gas_unit_price=yes")
    expect(flag.status).toBe(400)
  })

  /** A JSON SubmitTransactionRequest (the reference's other simulate body) for a transfer from 0xa550c18. */
  const jsonRequest = (
    to: string,
    amount: string,
    signature: Record<string, unknown> = { type: "no_account_signature" }
  ) => ({
    sender: ROOT_LONG,
    sequence_number: "0",
    max_gas_amount: "20000",
    gas_unit_price: "100",
    expiration_timestamp_secs: "4000000000",
    payload: {
      type: "entry_function_payload",
      function: "0x1::aptos_account::transfer",
      type_arguments: [],
      arguments: [to, amount]
    },
    signature
  })
  const postJson = (body: unknown, query = "") =>
    post(new TextEncoder().encode(typeof body === "string" ? body : JSON.stringify(body)), query, "application/json")

  it("a JSON SubmitTransactionRequest body is simulated as its BCS form is", async () => {
    const to = Account.generate().accountAddress
    const res = await postJson(jsonRequest(to.toString(), "321"))
    expect(res.status).toBe(200)
    const [r] = (await res.json()) as UserTransactionResponse[]
    expect(r!.success).toBe(true)
    expect(r!.vm_status).toBe("Executed successfully")
    expect(eventOf(r!, "0x1::fungible_asset::Deposit")[0]!.data.amount).toBe("321")
    expect(res.headers.get("x-aptos-gas-used")).toBe(r!.gas_used)
    // The same transaction sent as BCS by the SDK costs the same gas and reads the same.
    const [viaBcs] = await aptos.transaction.simulate.simple({ transaction: await transfer(ROOT_LONG, to, 321) })
    expect(r!.gas_used).toBe(viaBcs!.gas_used)
    expect(r!.payload).toEqual(viaBcs!.payload)
    // Query flags apply to it too.
    const estimated = await postJson(jsonRequest(to.toString(), "1"), "?estimate_max_gas_amount=true")
    expect(((await estimated.json()) as UserTransactionResponse[])[0]!.max_gas_amount).toBe("20000000")
  })

  it("JSON bodies: a valid signature, an unconvertible request and malformed JSON are 400s", async () => {
    const signer = Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(new Uint8Array(32).fill(6)) })
    const to = Account.generate().accountAddress
    const txn = await transfer(signer.accountAddress.toString(), to, 1)
    const auth = aptos.transaction.sign({ signer, transaction: txn }) as AccountAuthenticatorEd25519
    const raw = txn.rawTransaction
    const valid = {
      ...jsonRequest(to.toString(), "1"),
      sender: signer.accountAddress.toString(),
      sequence_number: raw.sequence_number.toString(),
      max_gas_amount: raw.max_gas_amount.toString(),
      gas_unit_price: raw.gas_unit_price.toString(),
      expiration_timestamp_secs: raw.expiration_timestamp_secs.toString(),
      signature: {
        type: "ed25519_signature",
        public_key: auth.public_key.toString(),
        signature: auth.signature.toString()
      }
    }
    const refused = await postJson(valid)
    expect(((await refused.json()) as { message: string }).message).toBe(
      "Simulated transactions must not have a valid signature"
    )
    expect(refused.status).toBe(400)
    const noFunction = { type: "entry_function_payload", function: "0x1::nope::f", type_arguments: [], arguments: [] }
    const bad = await postJson({ ...jsonRequest("0x2", "1"), payload: noFunction })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { message: string }).message).toMatch(
      /^Failed to create SignedTransaction from SubmitTransactionRequest/
    )
    expect((await postJson("{not json")).status).toBe(400)
    expect((await postJson({ sender: ROOT_LONG })).status).toBe(400)
  })

  it("answers the gas used in a header, and BCS on request", async () => {
    const txn = await transfer(ROOT_LONG, Account.generate().accountAddress, 1)
    const [json] = await aptos.transaction.simulate.simple({ transaction: txn })
    const { generateSignedTransactionForSimulation } = await import("@aptos-labs/ts-sdk")
    const body = await generateSignedTransactionForSimulation({ transaction: txn as SimpleTransaction })
    const res = await post(body)
    expect(res.headers.get("x-aptos-gas-used")).toBe(json!.gas_used)
    const bcs = await fetch(`${node.url}/transactions/simulate`, {
      method: "POST",
      headers: { "content-type": "application/x.aptos.signed_transaction+bcs", accept: "application/x-bcs" },
      body
    })
    expect(bcs.headers.get("content-type")).toBe("application/x-bcs")
    expect((await bcs.arrayBuffer()).byteLength).toBeGreaterThan(100)
  })

  it("is served to the typed client (MovenodeClient: client.simulation.simulate, BCS and JSON)", async () => {
    const txn = await transfer(ROOT_LONG, Account.generate().accountAddress, 77)
    const { generateSignedTransactionForSimulation } = await import("@aptos-labs/ts-sdk")
    const payload = await generateSignedTransactionForSimulation({ transaction: txn as SimpleTransaction })
    const origin = new URL(node.url).origin
    const answer = await Effect.runPromise(
      Effect.gen(function* () {
        const client = yield* MovenodeClient.make(origin)
        const bcs = yield* client.simulation.simulate({ payload, query: { estimate_gas_unit_price: "true" } })
        const json = yield* client.simulation.simulate({ payload: jsonRequest("0x2", "77"), query: {} })
        return [...bcs, ...json]
      })
    )
    expect(answer).toHaveLength(2)
    for (const a of answer)
      expect(a).toMatchObject({ type: "user_transaction", success: true, vm_status: "Executed successfully" })
  })
})
