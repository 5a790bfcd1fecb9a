/**
 * Generates the committed BCS test vectors with the TypeScript SDK (an independent oracle).
 * Run: `npx rolldown test/domain/vectors/generate.ts --platform node --format esm -o /tmp/generate-vectors.mjs
 *       && node /tmp/generate-vectors.mjs test/domain/vectors`
 * (the SDK is a dev dependency; nothing under src/ imports it).
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import {
  AccountAddress,
  AccountAuthenticatorEd25519,
  AccountAuthenticatorMultiKey,
  AccountAuthenticatorSingleKey,
  AccountAuthenticatorNoAccountAuthenticator,
  AnyPublicKey,
  AnySignature,
  Bool,
  ChainId,
  Ed25519PrivateKey,
  EntryFunction,
  Identifier,
  ModuleId,
  MoveVector,
  MultiAgentTransaction,
  MultiEd25519PublicKey,
  MultiEd25519Signature,
  MultiKey,
  MultiKeySignature,
  MultiSig,
  MultiSigTransactionPayload,
  RawTransaction,
  Script,
  Secp256k1PrivateKey,
  Serialized,
  SignedTransaction,
  SimpleTransaction,
  TransactionAuthenticatorEd25519,
  TransactionAuthenticatorFeePayer,
  TransactionAuthenticatorMultiAgent,
  TransactionAuthenticatorMultiEd25519,
  TransactionAuthenticatorSingleSender,
  TransactionExecutableEmpty,
  TransactionExecutableEntryFunction,
  TransactionExecutableScript,
  TransactionExtraConfigV1,
  TransactionInnerPayloadV1,
  TransactionPayloadEntryFunction,
  TransactionPayloadMultiSig,
  TransactionPayloadScript,
  U8,
  U16,
  U32,
  U64,
  U128,
  U256,
  generateSigningMessageForTransaction,
  generateUserTransactionHash,
  hashValues,
  parseTypeTag
} from "@aptos-labs/ts-sdk"

const addr = (s: string) => AccountAddress.fromString(s, { maxMissingChars: 63 })
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex")
const key = (n: number) => new Ed25519PrivateKey(`0x${n.toString(16).padStart(2, "0").repeat(32)}`)
const secpKey = new Secp256k1PrivateKey(`0x${"42".repeat(32)}`)

// Signed types only: the SDK numbers i8…i256 differently from aptos-core (see the reference notes).
export const typeStrings = [
  "bool",
  "u8",
  "u16",
  "u32",
  "u64",
  "u128",
  "u256",
  "address",
  "signer",
  "vector<u8>",
  "vector<vector<address>>",
  "0x1::aptos_coin::AptosCoin",
  "0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>",
  "0x1::object::Object<0x1::fungible_asset::Metadata>",
  `0x${"cafe".padStart(64, "0")}::pair::Pair<u8, vector<0x1::string::String>>`,
  `0x${"a550c18".padStart(64, "0")}::m::S<0x1::option::Option<vector<u64>>, bool, address>`
]

const transfer = new EntryFunction(
  ModuleId.fromStr("0x1::aptos_account"),
  new Identifier("transfer_coins"),
  [parseTypeTag("0x1::aptos_coin::AptosCoin")],
  [addr("0xb0b"), new U64(1234567890123n)]
)
const script = new Script(
  Uint8Array.from([0xa1, 0x1c, 0xeb, 0x0b, 7, 0, 0, 10]),
  [parseTypeTag("u64"), parseTypeTag("vector<0x1::string::String>")],
  [
    new U8(7),
    new U64(2n ** 64n - 1n),
    new U128(2n ** 100n),
    addr("0x1"),
    MoveVector.U8([1, 2, 3]),
    new Bool(true),
    new U16(65535),
    new U32(4294967295),
    new U256(2n ** 255n + 17n),
    new Serialized(Uint8Array.from([9, 8, 7]))
  ]
)

const raw = (payload: ConstructorParameters<typeof RawTransaction>[2], seq = 42n) =>
  new RawTransaction(addr("0xa11ce"), seq, payload, 200000n, 100n, 1_900_000_000n, new ChainId(4))

export const rawTransactions = (): Array<{ name: string; txn: RawTransaction }> => [
  { name: "entry function", txn: raw(new TransactionPayloadEntryFunction(transfer)) },
  { name: "script with every argument kind", txn: raw(new TransactionPayloadScript(script)) },
  {
    name: "multisig with payload",
    txn: raw(new TransactionPayloadMultiSig(new MultiSig(addr("0x5ca1e"), new MultiSigTransactionPayload(transfer))))
  },
  { name: "multisig without payload", txn: raw(new TransactionPayloadMultiSig(new MultiSig(addr("0x5ca1e")))) },
  {
    name: "payload v1 orderless entry function",
    txn: raw(
      new TransactionInnerPayloadV1(
        new TransactionExecutableEntryFunction(transfer),
        new TransactionExtraConfigV1(undefined, 987654321n)
      ) as never,
      2n ** 64n - 1n
    )
  },
  {
    name: "payload v1 multisig script",
    txn: raw(
      new TransactionInnerPayloadV1(
        new TransactionExecutableScript(script),
        new TransactionExtraConfigV1(addr("0x5ca1e"), undefined)
      ) as never
    )
  },
  {
    name: "payload v1 empty",
    txn: raw(new TransactionInnerPayloadV1(new TransactionExecutableEmpty(), new TransactionExtraConfigV1()) as never)
  }
]

const secondary = [addr("0xb0b"), addr("0xc0ffee")]
const feePayer = addr("0xfee")

export const generate = () => {
  const typeTags = typeStrings.map((type) => ({ type, bcs: hex(parseTypeTag(type).bcsToBytes()) }))

  const raws = rawTransactions().map(({ name, txn }) => ({
    name,
    bcs: hex(txn.bcsToBytes()),
    signingMessage: hex(generateSigningMessageForTransaction(new SimpleTransaction(txn))),
    secondarySigners: secondary.map((a) => a.toString()),
    multiAgentSigningMessage: hex(generateSigningMessageForTransaction(new MultiAgentTransaction(txn, secondary))),
    feePayer: feePayer.toString(),
    feePayerSigningMessage: hex(
      generateSigningMessageForTransaction(new MultiAgentTransaction(txn, secondary, feePayer))
    )
  }))

  const base = rawTransactions()[0]!.txn
  const msg = generateSigningMessageForTransaction(new SimpleTransaction(base))
  const ed = (n: number) => new AccountAuthenticatorEd25519(key(n).publicKey(), key(n).sign(msg))
  const single = new AccountAuthenticatorSingleKey(
    new AnyPublicKey(key(1).publicKey()),
    new AnySignature(key(1).sign(msg))
  )
  const singleSecp = new AccountAuthenticatorSingleKey(
    new AnyPublicKey(secpKey.publicKey()),
    new AnySignature(secpKey.sign(msg))
  )
  const multiKey = new MultiKey({
    publicKeys: [key(1).publicKey(), secpKey.publicKey(), key(2).publicKey()],
    signaturesRequired: 2
  })
  const multiKeyAuth = new AccountAuthenticatorMultiKey(
    multiKey,
    new MultiKeySignature({
      signatures: [new AnySignature(key(1).sign(msg)), new AnySignature(secpKey.sign(msg))],
      bitmap: MultiKeySignature.createBitmap({ bits: [0, 1] })
    })
  )
  const multiEdPk = new MultiEd25519PublicKey({
    publicKeys: [key(1).publicKey(), key(2).publicKey(), key(3).publicKey()],
    threshold: 2
  })
  const multiEdSig = new MultiEd25519Signature({
    signatures: [key(1).sign(msg) as never, key(3).sign(msg) as never],
    bitmap: MultiEd25519Signature.createBitmap({ bits: [0, 2] })
  })
  const signed = [
    { name: "ed25519", auth: new TransactionAuthenticatorEd25519(key(1).publicKey(), key(1).sign(msg) as never) },
    { name: "multi-ed25519", auth: new TransactionAuthenticatorMultiEd25519(multiEdPk, multiEdSig) },
    { name: "single sender, single key ed25519", auth: new TransactionAuthenticatorSingleSender(single) },
    { name: "single sender, single key secp256k1", auth: new TransactionAuthenticatorSingleSender(singleSecp) },
    { name: "single sender, multi key", auth: new TransactionAuthenticatorSingleSender(multiKeyAuth) },
    { name: "multi-agent", auth: new TransactionAuthenticatorMultiAgent(ed(1), secondary, [ed(2), single]) },
    {
      name: "fee payer",
      auth: new TransactionAuthenticatorFeePayer(ed(1), [], [], {
        address: feePayer,
        authenticator: multiKeyAuth
      })
    },
    {
      name: "fee payer without fee payer signature",
      auth: new TransactionAuthenticatorFeePayer(ed(1), secondary, [ed(2), ed(3)], {
        address: AccountAddress.ZERO,
        authenticator: new AccountAuthenticatorNoAccountAuthenticator()
      })
    }
  ].map(({ name, auth }) => {
    const bcs = new SignedTransaction(base, auth).bcsToBytes()
    // The SDK's rule for a user transaction's hash: sha3(sha3("APTOS::Transaction") ‖ 0 ‖ BCS).
    return { name, bcs: hex(bcs), hash: hex(hashValues([hashValues(["APTOS::Transaction"]), Uint8Array.of(0), bcs])) }
  })
  // The first (ed25519) case through the SDK's public helper as well.
  const sdkHash = generateUserTransactionHash({ transaction: new SimpleTransaction(base), senderAuthenticator: ed(1) })
  if (sdkHash !== `0x${signed[0]!.hash}`) throw new Error(`hash mismatch: ${sdkHash} vs ${signed[0]!.hash}`)

  return { typeTags, rawTransactions: raws, signedTransactions: signed }
}

const outDir = process.argv[2]
if (outDir !== undefined) {
  const v = generate()
  for (const [name, data] of Object.entries(v))
    writeFileSync(join(outDir, `${name}.json`), JSON.stringify(data, null, 2) + "\n")
  console.log(`wrote ${Object.keys(v).length} vector files to ${outDir}`)
}
