/**
 * `account_restoration_processor` (pv2 `processors/account_restoration/`): what the SDK's
 * `getAccountsForPublicKey` / `deriveAccountFromPrivateKey` read to find accounts whose address is
 * not derived from the key that controls them. Successful user transactions only.
 * - `auth_key_account_addresses` (PK account_address): when the sender's `0x1::account::Account` is
 *   written and the transaction rotated its key (`rotate_authentication_key*`,
 *   `upsert_ed25519_backup_key_on_keyless_account`), or its auth key differs from its address, or
 *   it signed with a multi-key / multi-ed25519 key, or it emitted `KeyRotationToPublicKey`;
 *   `is_auth_key_used` false for the unverified rotations (`rotate_authentication_key_call`,
 *   `rotate_authentication_key_from_public_key`).
 * - `public_key_auth_keys` (PK auth_key, public_key, public_key_type): one row per member key of the
 *   sender's multi-key or multi-ed25519 key (from its signature, or from the rotation event), with
 *   the whole key (`account_public_key`, BCS as the SDK deserializes it) and whether that member
 *   signed; `is_public_key_used` stays true once true.
 */
import * as Result from "effect/Result"
import { Bcs, BcsWriter, toHex0x } from "../../bcs/index.js"
import { readAnyPublicKey, writeAnyPublicKey } from "../../domain/CryptoMaterialCodec.js"
import type { AccountAuthenticator, AnyPublicKey } from "../../domain/TransactionAuthenticator.js"
import type { IndexerTransaction } from "./input/IndexerTransaction.js"
import { bitIndices, publicKeyHex, publicKeyTypeOf } from "./keys.js"
import { stringField, uintField } from "./moveValues.js"
import type { Processor, Row } from "./Processor.js"
import { standardAddress, upsertRows } from "./rows.js"

const VERIFIED_ROTATIONS = new Set([
  "0x1::account::rotate_authentication_key",
  "0x1::account::rotate_authentication_key_with_rotation_capability",
  "0x1::account::upsert_ed25519_backup_key_on_keyless_account"
])
const UNVERIFIED_ROTATIONS = new Set([
  "0x1::account::rotate_authentication_key_call",
  "0x1::account::rotate_authentication_key_from_public_key"
])

/** The reference's limits: at most 16 keys, account_public_key at most 13,000 characters. */
const MAX_KEYS = 16
const MAX_ACCOUNT_PUBLIC_KEY_LENGTH = 13_000

interface MemberKey {
  readonly publicKey: string
  readonly publicKeyType: string
  readonly used: boolean
}

interface MultiKeyFacts {
  readonly keys: ReadonlyArray<MemberKey>
  readonly accountPublicKey: string
  readonly signatureType: "multi_ed25519_signature" | "multi_key_signature"
}

/** MultiEd25519: keys (32 bytes each) ‖ threshold; signatures (64 bytes each) ‖ 4-byte bitmap. */
const multiEd25519Facts = (publicKey: Uint8Array, signature: Uint8Array): MultiKeyFacts | undefined => {
  if (publicKey.length < 33 || (publicKey.length - 1) % 32 !== 0 || signature.length < 4) return undefined
  const count = (publicKey.length - 1) / 32
  if (count > 32) return undefined
  const used = new Set(bitIndices(signature.subarray(signature.length - 4)))
  const keys: MemberKey[] = []
  for (let i = 0; i < count; i++)
    keys.push({
      publicKey: toHex0x(publicKey.subarray(i * 32, i * 32 + 32)),
      publicKeyType: "ed25519",
      used: used.has(i)
    })
  return { keys, accountPublicKey: toHex0x(publicKey), signatureType: "multi_ed25519_signature" }
}

const multiKeyFacts = (
  publicKeys: ReadonlyArray<AnyPublicKey>,
  signaturesRequired: number,
  used: ReadonlySet<number>
): MultiKeyFacts | undefined => {
  if (publicKeys.length > MAX_KEYS) return undefined
  const w = new BcsWriter(256)
  w.uleb128(publicKeys.length)
  for (const k of publicKeys) writeAnyPublicKey(w, k)
  w.u8(signaturesRequired)
  const accountPublicKey = toHex0x(w.toBytes())
  if (accountPublicKey.length > MAX_ACCOUNT_PUBLIC_KEY_LENGTH) return undefined
  return {
    keys: publicKeys.map((k, i) => ({
      publicKey: publicKeyHex(k),
      publicKeyType: publicKeyTypeOf(k),
      used: used.has(i)
    })),
    accountPublicKey,
    signatureType: "multi_key_signature"
  }
}

const accountAuthenticatorFacts = (a: AccountAuthenticator): MultiKeyFacts | undefined => {
  switch (a._tag) {
    case "MultiEd25519":
      return multiEd25519Facts(a.publicKey, a.signature)
    case "MultiKey":
      return multiKeyFacts(a.publicKeys, a.signaturesRequired, new Set(bitIndices(a.bitmap)))
    default:
      return undefined
  }
}

/** The sender's multi-key from the transaction's signature (`get_multi_key_from_signature`). */
const senderMultiKey = (t: IndexerTransaction): MultiKeyFacts | undefined => {
  const auth = t.user?.authenticator
  if (auth === undefined) return undefined
  switch (auth._tag) {
    case "Ed25519":
      return undefined
    case "MultiEd25519":
      return multiEd25519Facts(auth.publicKey, auth.signature)
    case "MultiAgent":
    case "FeePayer":
    case "SingleSender":
      return accountAuthenticatorFacts(auth.sender)
  }
}

/** Whether an `0x1::account::Account` value's first field, its authentication key, is `address`'s 32 bytes. */
const keyIsAddress = (value: Uint8Array | undefined, address: string): boolean =>
  value !== undefined && value.length >= 33 && value[0] === 32 && toHex0x(value.subarray(1, 33)) === address

const hexBytes = (s: string | undefined): Uint8Array | undefined =>
  s !== undefined && /^0x([0-9a-f]{2})*$/i.test(s) ? Uint8Array.from(Buffer.from(s.slice(2), "hex")) : undefined

/** A `0x1::account::KeyRotationToPublicKey` event: the new key and which of its members were verified. */
const rotationEventFacts = (t: IndexerTransaction): { facts: MultiKeyFacts | undefined } | undefined => {
  const e = t.events.find((x) => x.type === "0x1::account::KeyRotationToPublicKey")
  if (e === undefined) return undefined
  const data = e.data()
  const publicKey = hexBytes(stringField(data, "public_key"))
  const bitmap = hexBytes(stringField(data, "verified_public_key_bit_map"))
  const scheme = uintField(data, "public_key_scheme")
  if (publicKey === undefined || bitmap === undefined || scheme === undefined) return { facts: undefined }
  const verified = new Set(bitIndices(bitmap))
  if (scheme === 1n) {
    // MultiEd25519: 32-byte keys then the threshold byte.
    const count = Math.floor(publicKey.length / 32)
    const keys: MemberKey[] = []
    for (let i = 0; i < count; i++)
      keys.push({
        publicKey: toHex0x(publicKey.subarray(i * 32, i * 32 + 32)),
        publicKeyType: "ed25519",
        used: verified.has(i)
      })
    return { facts: { keys, accountPublicKey: toHex0x(publicKey), signatureType: "multi_ed25519_signature" } }
  }
  if (scheme === 3n) {
    const decoded = decodeMultiKey(publicKey)
    if (decoded === undefined) return { facts: undefined }
    const facts = multiKeyFacts(decoded.publicKeys, decoded.signaturesRequired, verified)
    return { facts: facts === undefined ? undefined : { ...facts, accountPublicKey: toHex0x(publicKey) } }
  }
  return { facts: undefined }
}

/** BCS `MultiKey { public_keys: vector<AnyPublicKey>, signatures_required: u8 }` (a rotation event's key). */
const multiKeyCodec = Bcs.codec<{ publicKeys: ReadonlyArray<AnyPublicKey>; signaturesRequired: number }>(
  (w, v) => {
    w.uleb128(v.publicKeys.length)
    for (const k of v.publicKeys) writeAnyPublicKey(w, k)
    w.u8(v.signaturesRequired)
  },
  (r) => {
    const n = r.uleb128()
    if (n > MAX_KEYS) throw new RangeError(`a multi-key of ${n} keys (at most ${MAX_KEYS})`)
    const publicKeys: AnyPublicKey[] = []
    for (let i = 0; i < n; i++) publicKeys.push(readAnyPublicKey(r))
    return { publicKeys, signaturesRequired: r.u8() }
  }
)

const decodeMultiKey = (bytes: Uint8Array) => {
  const r = Bcs.decode(multiKeyCodec, bytes)
  return Result.isSuccess(r) ? r.success : undefined
}

export const accountRestorationRows = (t: IndexerTransaction): { authKeys: Row[]; publicKeys: Row[] } => {
  const authKeys: Row[] = []
  const publicKeys: Row[] = []
  const u = t.user
  if (u === undefined || !t.success) return { authKeys, publicKeys }
  const entry = u.entryFunction?.idStr ?? ""
  const rotation = rotationEventFacts(t)
  let multiKey = senderMultiKey(t)
  let senderAuthKey: string | undefined
  // Whether the key alone decides: outside the rotation functions, without a multi-key, an account
  // whose key is its address gets no row.
  const keyDecides = !UNVERIFIED_ROTATIONS.has(entry) && !VERIFIED_ROTATIONS.has(entry) && multiKey === undefined
  for (const c of t.changes) {
    if (c.type !== "write_resource" || c.typeStr !== "0x1::account::Account" || c.address !== u.sender) continue
    // Nearly every transaction: the account was never rotated, which its value's first field (the
    // key, a 32-byte vector) shows without decoding the rest into JSON (~6 µs). Were the rest
    // malformed, the decode below would skip the account too.
    if (keyDecides && rotation === undefined && keyIsAddress(c.bytes, c.address)) continue
    const authKey = standardAddress(stringField(c.data(), "authentication_key") ?? "")
    if (authKey === undefined) continue
    let used: boolean | undefined
    if (UNVERIFIED_ROTATIONS.has(entry)) used = false
    else if (VERIFIED_ROTATIONS.has(entry) || authKey !== c.address || multiKey !== undefined || rotation !== undefined)
      used = true
    if (used === undefined) continue
    senderAuthKey = authKey
    authKeys.push({
      account_address: c.address,
      auth_key: authKey,
      last_transaction_version: t.version,
      is_auth_key_used: used
    })
  }
  if (rotation !== undefined) multiKey = rotation.facts
  if (multiKey !== undefined && senderAuthKey !== undefined)
    for (const k of multiKey.keys)
      publicKeys.push({
        public_key: k.publicKey,
        public_key_type: k.publicKeyType,
        auth_key: senderAuthKey,
        account_public_key: multiKey.accountPublicKey,
        is_public_key_used: k.used,
        last_transaction_version: t.version,
        signature_type: multiKey.signatureType
      })
  return { authKeys, publicKeys }
}

export const accountRestorationProcessor: Processor = {
  name: "account_restoration_processor",
  tables: ["auth_key_account_addresses", "public_key_auth_keys"],
  process: (batch) => {
    const authKeys: Row[] = []
    const publicKeys: Row[] = []
    for (const t of batch) {
      const rows = accountRestorationRows(t)
      authKeys.push(...rows.authKeys)
      publicKeys.push(...rows.publicKeys)
    }
    return [
      ...upsertRows(
        { table: "auth_key_account_addresses", key: ["account_address"], guard: "last_transaction_version" },
        authKeys
      ),
      ...upsertRows(
        {
          table: "public_key_auth_keys",
          key: ["auth_key", "public_key", "public_key_type"],
          guard: "last_transaction_version",
          or: ["is_public_key_used"]
        },
        publicKeys
      )
    ]
  }
}
