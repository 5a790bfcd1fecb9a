/**
 * The pure signing-message path against the SDK's build-and-generate path (local ABI, no network)
 * for the same transactions. Run: `npx vitest bench --run test/node/encode/signingMessage.bench.ts`.
 */
import { Result } from "effect"
import { test } from "vitest"
import { buildSigningMessage, encodeSubmission } from "../../../src/node/encode/buildSigningMessage.js"
import { parseEncodeSubmissionRequest } from "../../../src/node/encode/EncodeSubmissionRequest.js"
import { genesisModules } from "./genesisModules.js"
import { longAddress, type SdkRequest, sdkSigningMessage } from "./sdkOracle.js"

const { source } = genesisModules("devnet")

const recipients = Array.from({ length: 10 }, (_, i) => `0x${(0xb0b + i).toString(16)}`)
const cases = [
  { fn: "0x1::aptos_account::transfer", params: ["address", "u64"], args: ["0xb0b", "1000"] },
  {
    fn: "0x1::aptos_account::batch_transfer",
    params: ["vector<address>", "vector<u64>"],
    args: [recipients, recipients.map((_, i) => String(1000 + i))]
  }
]

for (const c of cases) {
  const body = {
    sender: "0xa11ce",
    sequence_number: "7",
    max_gas_amount: "2000",
    gas_unit_price: "100",
    expiration_timestamp_secs: "1900000000",
    payload: { type: "entry_function_payload", function: c.fn, type_arguments: [], arguments: c.args }
  }
  const parsed = Result.getOrThrow(parseEncodeSubmissionRequest(body))
  const sdk: SdkRequest = {
    sender: "0xa11ce",
    sequenceNumber: 7n,
    maxGasAmount: 2000n,
    gasUnitPrice: 100n,
    expirationTimestampSecs: 1900000000n,
    chainId: 4,
    function: c.fn,
    typeArguments: [],
    parameters: c.params,
    typeParameterCount: 0,
    arguments: c.args.map((a) =>
      Array.isArray(a)
        ? a.map((x) => (x.startsWith("0x") ? longAddress(x) : x))
        : a.startsWith("0x")
          ? longAddress(a)
          : a
    )
  }
  test(c.fn, async ({ bench }) => {
    await bench.compare(
      bench("movenode buildSigningMessage (parsed request)", () => {
        Result.getOrThrow(buildSigningMessage(parsed, source, 4))
      }),
      bench("movenode encodeSubmission (JSON body: parse, verify, convert, sign-encode)", () => {
        Result.getOrThrow(encodeSubmission(body, source, 4))
      }),
      bench("ts-sdk payload with local ABI + RawTransaction + generateSigningMessageForTransaction", () => {
        sdkSigningMessage(sdk)
      }),
      { time: 1_500 }
    )
  })
}
