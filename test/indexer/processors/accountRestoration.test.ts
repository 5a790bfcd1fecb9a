/**
 * The account-restoration processor on real transactions: a multi-key account signing with one of
 * its two keys, a legacy Ed25519 account rotating to a new key (verified), and one rotating to a
 * multi-key without proof (unverified), then a plain transfer by the rotated account — the rows the SDK's `getAccountsForPublicKey` /
 * `deriveAccountFromPrivateKey` read (indexer.md §2.7).
 */
import { Account, Ed25519PrivateKey, MultiKey, MultiKeyAccount, type UserTransactionResponse } from "@aptos-labs/ts-sdk"
import { describe, expect, it } from "vitest"
import { accountRestorationProcessor } from "../../../src/indexer/processors/accountRestoration.js"
import { userTransactionProcessor } from "../../../src/indexer/processors/userTransactions.js"
import { applyWrites, rowsIn } from "./support/applyWrites.js"
import { withIndexedChain } from "./support/indexedChain.js"

describe("account_restoration_processor", () => {
  it("records multi-key signers and rotated keys as the reference does", async () => {
    await withIndexedChain(async ({ aptos, transactions }) => {
      const fund = (a: { accountAddress: Account["accountAddress"] }) =>
        aptos.fundAccount({
          accountAddress: a.accountAddress,
          amount: 1_000_000_000,
          options: { waitForIndexer: false }
        })
      const send = async (signer: Account, transaction: Awaited<ReturnType<typeof aptos.transaction.build.simple>>) => {
        const pending = await aptos.signAndSubmitTransaction({ signer, transaction })
        return (await aptos.waitForTransaction({ transactionHash: pending.hash })) as UserTransactionResponse
      }

      // A multi-key account (1 of 2) signs with its first key.
      const k1 = Account.generate()
      const k2 = Account.generate()
      const multiKey = new MultiKey({ publicKeys: [k1.publicKey, k2.publicKey], signaturesRequired: 1 })
      const multi = new MultiKeyAccount({ multiKey, signers: [k1] })
      await fund(multi)
      const multiTxn = await send(
        multi,
        await aptos.transferCoinTransaction({ sender: multi.accountAddress, recipient: k1.accountAddress, amount: 1 })
      )

      // A legacy account rotates to a new Ed25519 key (proof of both keys: verified).
      const old = Account.generate()
      await fund(old)
      const newKey = Ed25519PrivateKey.generate()
      await send(old, await aptos.rotateAuthKey({ fromAccount: old, toNewPrivateKey: newKey }))
      // Then a plain transfer with the new key: not a rotation, no multi-key, but its key is not its
      // address, so its row is written again (at this version).
      const rotatedSigner = Account.fromPrivateKey({ privateKey: newKey, address: old.accountAddress, legacy: true })
      const afterRotation = await send(
        rotatedSigner,
        await aptos.transferCoinTransaction({ sender: old.accountAddress, recipient: k2.accountAddress, amount: 1 })
      )

      // Another rotates to a multi-key without proof (unverified).
      const other = Account.generate()
      await fund(other)
      const unverified = await send(
        other,
        await aptos.rotateAuthKeyUnverified({ fromAccount: other, toNewPublicKey: multiKey })
      )

      const batch = await transactions()
      const tables = applyWrites(new Map(), [
        ...accountRestorationProcessor.process(batch),
        ...userTransactionProcessor.process(batch)
      ])
      // The multi-key transaction's signature row (user_transaction_processor's signatures).
      expect(rowsIn(tables, "signatures").filter((r) => r.transaction_version === BigInt(multiTxn.version))).toEqual([
        expect.objectContaining({
          signer: multi.accountAddress.toStringLong(),
          type: "multi_key_signature",
          public_key: k1.publicKey.toString(),
          threshold: 1n,
          public_key_indices: [0],
          any_signature_type: "ed25519",
          public_key_type: "ed25519",
          is_sender_primary: true
        })
      ])
      const authKeys = rowsIn(tables, "auth_key_account_addresses")
      const publicKeys = rowsIn(tables, "public_key_auth_keys")

      expect(authKeys.find((r) => r.account_address === multi.accountAddress.toStringLong())).toEqual({
        account_address: multi.accountAddress.toStringLong(),
        auth_key: multiKey.authKey().toString(),
        last_transaction_version: BigInt(multiTxn.version),
        is_auth_key_used: true
      })
      const members = publicKeys
        .filter((r) => r.auth_key === multiKey.authKey().toString())
        .sort((a, b) => Number(b.is_public_key_used) - Number(a.is_public_key_used))
      expect(members).toEqual([
        {
          public_key: k1.publicKey.toString(),
          public_key_type: "ed25519",
          auth_key: multiKey.authKey().toString(),
          account_public_key: multiKey.bcsToHex().toString(),
          is_public_key_used: true,
          last_transaction_version: expect.any(BigInt),
          signature_type: "multi_key_signature"
        },
        {
          public_key: k2.publicKey.toString(),
          public_key_type: "ed25519",
          auth_key: multiKey.authKey().toString(),
          account_public_key: multiKey.bcsToHex().toString(),
          is_public_key_used: false,
          last_transaction_version: expect.any(BigInt),
          signature_type: "multi_key_signature"
        }
      ])

      const newAuthKey = Account.fromPrivateKey({ privateKey: newKey, legacy: true }).publicKey.authKey().toString()
      expect(authKeys.find((r) => r.account_address === old.accountAddress.toStringLong())).toEqual({
        account_address: old.accountAddress.toStringLong(),
        auth_key: newAuthKey,
        last_transaction_version: BigInt(afterRotation.version),
        is_auth_key_used: true
      })
      expect(authKeys.find((r) => r.account_address === other.accountAddress.toStringLong())).toEqual({
        account_address: other.accountAddress.toStringLong(),
        auth_key: multiKey.authKey().toString(),
        last_transaction_version: BigInt(unverified.version),
        is_auth_key_used: false
      })
      // A plain account that never rotated nor used a multi-key has no row.
      expect(authKeys.find((r) => r.account_address === k1.accountAddress.toStringLong())).toBeUndefined()
    })
  }, 120_000)
})
