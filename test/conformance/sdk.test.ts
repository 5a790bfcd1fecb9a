/**
 * The TypeScript SDK, an independent client, against the real `movenode run` stack (LMDB, devnet
 * genesis, `X-APTOS-` headers): modules and their ABIs, views (BCS and JSON bodies), the gas
 * estimate, the balance call, and encode_submission against the SDK's own signing messages.
 */
import {
  Aptos,
  AptosConfig,
  type InputGenerateTransactionOptions,
  Network,
  generateSigningMessageForTransaction
} from "@aptos-labs/ts-sdk"
import { Result } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { toHex0x } from "../../src/bcs/index.js"
import { listGenesisModules, moduleAbiCommand } from "../../src/move/abi/cli.js"
import { loadGenesisBytes } from "../support/genesis.js"
import { MOVE_STRUCT_KEYS } from "../support/moveStructKeys.js"
import { type RunningNode, startRun } from "./harness.js"

const U64_MAX = "18446744073709551615"
const ROOT = "0xa550c18"
/** The SDK's BCS argument encoder takes only the long form of non-special addresses (AIP-40). */
const ROOT_LONG = `0x${"a550c18".padStart(64, "0")}`
const APT = "0x1::aptos_coin::AptosCoin" as const

let node: RunningNode
let aptos: Aptos
beforeAll(async () => {
  node = await startRun("devnet")
  aptos = new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: node.url }))
})
afterAll(() => node.close())

const genesisModule = (name: string): Uint8Array => {
  const rows = listGenesisModules(loadGenesisBytes("devnet"))
  if (Result.isFailure(rows)) throw new Error("devnet genesis does not list its modules")
  const row = rows.success.find((r) => r.address === "0x1" && r.name === name)
  if (row === undefined) throw new Error(`0x1::${name} is not in the devnet genesis`)
  return row.bytes
}

describe("modules through the SDK", () => {
  it("0x1::chain_id: bytecode is the genesis bytes, ABI as the source declares it", async () => {
    const m = await aptos.getAccountModule({ accountAddress: "0x1", moduleName: "chain_id" })
    expect(m.bytecode).toBe(toHex0x(genesisModule("chain_id")))
    expect(m.abi?.address).toBe("0x1")
    expect(m.abi?.name).toBe("chain_id")
    expect(m.abi?.friends).toEqual(["0x1::genesis"])
    const get = m.abi?.exposed_functions.find((f) => f.name === "get")
    expect(get).toEqual({
      name: "get",
      visibility: "public",
      is_entry: false,
      is_view: true,
      generic_type_params: [],
      params: [],
      return: ["u8"]
    })
    const init = m.abi?.exposed_functions.find((f) => f.name === "initialize")
    expect(init).toMatchObject({ visibility: "friend", is_entry: false, params: ["&signer", "u8"], return: [] })
    expect(m.abi?.structs).toEqual([
      {
        name: "ChainId",
        is_native: false,
        is_event: false,
        is_enum: false,
        abilities: ["key"],
        generic_type_params: [],
        fields: [{ name: "id", type: "u8" }],
        variants: []
      }
    ])
  })

  for (const name of ["coin", "object", "option", "primary_fungible_store"])
    it(`0x1::${name}: getAccountModule deep-equals the genesis bytes and \`movenode module abi\` of them`, async () => {
      const m = await aptos.getAccountModule({ accountAddress: "0x1", moduleName: name })
      const bytes = genesisModule(name)
      expect(m).toEqual({ bytecode: toHex0x(bytes), abi: JSON.parse(Result.getOrThrow(moduleAbiCommand(bytes))) })
      for (const s of m.abi?.structs ?? []) expect(Object.keys(s)).toEqual(MOVE_STRUCT_KEYS)
    })

  it("0x1::option: the legacy struct form, as the reference's test_abi asserts", async () => {
    const m = await aptos.getAccountModule({ accountAddress: "0x1", moduleName: "option" })
    expect(m.abi?.structs[0]).toEqual({
      name: "Option",
      is_native: false,
      is_event: false,
      is_enum: false,
      abilities: ["copy", "drop", "store"],
      generic_type_params: [{ constraints: [] }],
      fields: [{ name: "vec", type: "vector<T0>" }],
      variants: []
    })
  })

  it("0x1::coin: generic view functions and generic structs", async () => {
    const m = await aptos.getAccountModule({ accountAddress: "0x1", moduleName: "coin" })
    expect(m.bytecode).toBe(toHex0x(genesisModule("coin")))
    const balance = m.abi?.exposed_functions.find((f) => f.name === "balance")
    expect(balance).toEqual({
      name: "balance",
      visibility: "public",
      is_entry: false,
      is_view: true,
      generic_type_params: [{ constraints: [] }],
      params: ["address"],
      return: ["u64"]
    })
    const store = m.abi?.structs.find((s) => s.name === "CoinStore")
    expect(store?.abilities).toEqual(["key"])
    expect(store?.generic_type_params).toEqual([{ constraints: [] }])
    expect(store?.fields.map((f) => [f.name, f.type])).toEqual([
      ["coin", "0x1::coin::Coin<T0>"],
      ["frozen", "bool"],
      ["deposit_events", "0x1::event::EventHandle<0x1::coin::DepositEvent>"],
      ["withdraw_events", "0x1::event::EventHandle<0x1::coin::WithdrawEvent>"]
    ])
    const coin = m.abi?.structs.find((s) => s.name === "Coin")
    expect(coin?.abilities).toEqual(["store"])
    expect(coin?.fields).toEqual([{ name: "value", type: "u64" }])
    // `#[event]` structs are flagged.
    expect(m.abi?.structs.find((s) => s.name === "CoinDeposit")?.is_event).toBe(true)
  })

  it("0x1::aptos_account: entry functions with signer params", async () => {
    const m = await aptos.getAccountModule({ accountAddress: "0x1", moduleName: "aptos_account" })
    expect(m.bytecode).toBe(toHex0x(genesisModule("aptos_account")))
    expect(m.abi?.exposed_functions.find((f) => f.name === "transfer")).toEqual({
      name: "transfer",
      visibility: "public",
      is_entry: true,
      is_view: false,
      generic_type_params: [],
      params: ["&signer", "address", "u64"],
      return: []
    })
    expect(m.abi?.exposed_functions.find((f) => f.name === "transfer_coins")).toMatchObject({
      is_entry: true,
      generic_type_params: [{ constraints: [] }],
      params: ["&signer", "address", "u64"]
    })
    expect(m.abi?.exposed_functions.find((f) => f.name === "can_receive_direct_coin_transfers")).toMatchObject({
      is_view: true,
      params: ["address"],
      return: ["bool"]
    })
  })
})

describe("views through the SDK: BCS body (view) and JSON body (viewJson) agree", () => {
  const cases: ReadonlyArray<{
    fn: `${string}::${string}::${string}`
    typeArguments: Array<`${string}::${string}::${string}`>
    args: Array<string>
    expected: unknown
  }> = [
    { fn: "0x1::chain_id::get", typeArguments: [], args: [], expected: [243] },
    { fn: "0x1::coin::balance", typeArguments: [APT], args: [ROOT_LONG], expected: [U64_MAX] },
    { fn: "0x1::account::get_sequence_number", typeArguments: [], args: [ROOT_LONG], expected: ["0"] },
    { fn: "0x1::coin::name", typeArguments: [APT], args: [], expected: ["Aptos Coin"] },
    { fn: "0x1::coin::symbol", typeArguments: [APT], args: [], expected: ["APT"] },
    { fn: "0x1::coin::decimals", typeArguments: [APT], args: [], expected: [8] }
  ]
  for (const c of cases)
    it(`${c.fn}${c.typeArguments.length > 0 ? `<${c.typeArguments.join(", ")}>` : ""}(${c.args.join(", ")})`, async () => {
      const payload = { function: c.fn, typeArguments: c.typeArguments, functionArguments: c.args }
      expect(await aptos.view({ payload })).toEqual(c.expected)
      expect(await aptos.viewJson({ payload })).toEqual(c.expected)
    })

  it("0x1::timestamp::now_microseconds is the ledger timestamp", async () => {
    const info = await aptos.getLedgerInfo()
    const payload = { function: "0x1::timestamp::now_microseconds" as const, typeArguments: [], functionArguments: [] }
    expect(await aptos.view({ payload })).toEqual([info.ledger_timestamp])
    expect(await aptos.viewJson({ payload })).toEqual([info.ledger_timestamp])
  })
})

describe("gas estimate and balances through the SDK", () => {
  it("getGasPriceEstimation: the devnet minimum and its next bucket", async () => {
    expect(await aptos.getGasPriceEstimation()).toEqual({
      deprioritized_gas_estimate: 100,
      gas_estimate: 100,
      prioritized_gas_estimate: 150
    })
  })
  it("getBalance uses /balance; the SDK parses into a JS number (its rounding, not ours)", async () => {
    // The SDK does `parseInt(String(JSON.parse(body)))`: u64::MAX comes back rounded to 2^64.
    expect(await aptos.getBalance({ accountAddress: ROOT, asset: APT })).toBe(Number(U64_MAX))
    expect(await aptos.getBalance({ accountAddress: ROOT, asset: "0xa" })).toBe(Number(U64_MAX))
    expect(await aptos.getBalance({ accountAddress: "0xdead0001", asset: APT })).toBe(0)
    // The wire carries every digit.
    expect(await (await fetch(`${node.url}/accounts/${ROOT}/balance/${APT}`)).text()).toBe(U64_MAX)
  })
})

describe("encode_submission equals the SDK's generateSigningMessageForTransaction", () => {
  const SENDER = "0x00000000000000000000000000000000000000000000000000000000000b0b01"
  const SECOND = "0x00000000000000000000000000000000000000000000000000000000000c0c02"
  const RECIPIENT = "0x00000000000000000000000000000000000000000000000000000000000d0d03"
  const options = { maxGasAmount: 2000, gasUnitPrice: 100, expireTimestamp: 1_900_000_000 }
  const data = { function: "0x1::aptos_account::transfer" as const, functionArguments: [RECIPIENT, 1234n] }
  const request = (extra: Record<string, unknown>) => ({
    sender: SENDER,
    sequence_number: "7",
    max_gas_amount: "2000",
    gas_unit_price: "100",
    expiration_timestamp_secs: "1900000000",
    payload: {
      type: "entry_function_payload",
      function: "0x1::aptos_account::transfer",
      type_arguments: [],
      arguments: [RECIPIENT, "1234"]
    },
    ...extra
  })
  const encode = async (body: unknown): Promise<string> => {
    const r = await fetch(`${node.url}/transactions/encode_submission`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body)
    })
    expect(r.status).toBe(200)
    expect(r.headers.get("x-aptos-chain-id")).toBe("243")
    return (await r.json()) as string
  }
  const sdkMessage = (t: Parameters<typeof generateSigningMessageForTransaction>[0]) =>
    toHex0x(generateSigningMessageForTransaction(t))

  it("a transfer (RawTransaction seed)", async () => {
    const opts: InputGenerateTransactionOptions = { ...options, accountSequenceNumber: 7 }
    const txn = await aptos.transaction.build.simple({ sender: SENDER, data, options: opts })
    expect(await encode(request({}))).toBe(sdkMessage(txn))
  })
  it("a multi-agent transfer (RawTransactionWithData seed, secondary signers)", async () => {
    const opts: InputGenerateTransactionOptions = { ...options, accountSequenceNumber: 7 }
    const txn = await aptos.transaction.build.multiAgent({
      sender: SENDER,
      secondarySignerAddresses: [SECOND],
      data,
      options: opts
    })
    expect(await encode(request({ secondary_signers: [SECOND] }))).toBe(sdkMessage(txn))
  })
  it("an orderless transfer (nonce, sequence number u64::MAX, payload variant 4)", async () => {
    const opts: InputGenerateTransactionOptions = { ...options, replayProtectionNonce: 98765 }
    const txn = await aptos.transaction.build.simple({ sender: SENDER, data, options: opts })
    const message = await encode(request({ replay_protection_nonce: "98765" }))
    expect(message).toBe(sdkMessage(txn))
    // sender (32) then sequence number u64::MAX, right after the 32-byte seed.
    expect(message.slice(2 + 128, 2 + 144)).toBe("ffffffffffffffff")
  })
})
