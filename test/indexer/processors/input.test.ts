/**
 * The processors' input against the REST API's rendering of the same transactions: the changes in
 * the same order (so `write_set_change_index` is the reference's), with the same types, addresses,
 * state key hashes and Move values; the events with the same keys, types and data. Many transfers, so
 * that unchanged resource-group members (APT's metadata object beside its supply, the stores' object
 * cores) are served from the input's cache of decoded values (resourceJsonCache.ts), and the types
 * whose values never repeat (accounts, balances) come to be passed over by it: all must still match.
 */
import { Account, Ed25519PrivateKey } from "@aptos-labs/ts-sdk"
import { describe, expect, it } from "vitest"
import { PROBE } from "../../../src/indexer/processors/input/resourceJsonCache.js"
import { transferToNewAccount, withIndexedChain } from "./support/indexedChain.js"

const long = (a: string) => "0x" + a.slice(2).padStart(64, "0")

describe("IndexerTransaction", () => {
  it("lists changes and events as GET /transactions/by_version does", async () => {
    await withIndexedChain(async ({ chain, aptos, transactions }) => {
      const alice = Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(chain.accounts[0]!.privateKey) })
      const bob = Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(chain.accounts[1]!.privateKey) })
      await transferToNewAccount(aptos, alice, 5)
      await transferToNewAccount(aptos, alice, 7)
      // More transfers than the cache's probe, so that it passes over accounts and balances.
      for (let i = 0; i < PROBE + 6; i++) {
        const transaction = await aptos.transferCoinTransaction({
          sender: alice.accountAddress,
          recipient: bob.accountAddress,
          amount: 1 + i
        })
        const pending = await aptos.signAndSubmitTransaction({ signer: alice, transaction })
        await aptos.waitForTransaction({ transactionHash: pending.hash })
      }
      const batch = await transactions()
      const transfers = batch.filter((t) => t.user?.sender === alice.accountAddress.toStringLong())
      expect(transfers.length).toBe(PROBE + 8)
      // A member unchanged from one transfer to the next is the earlier one's JSON, kept: APT's
      // `Metadata` (every fee burn writes its group), and the last transfers' object cores.
      const memberOf = (t: (typeof batch)[number], typeStr: string, nth = 0) =>
        t.changes.filter((c) => c.type === "write_resource" && c.typeStr === typeStr)[nth]
      const sameJson = (a: (typeof batch)[number], b: (typeof batch)[number], typeStr: string, nth = 0) => {
        const x = memberOf(a, typeStr, nth)
        const y = memberOf(b, typeStr, nth)
        expect(x?.type === "write_resource" && y?.type === "write_resource").toBe(true)
        if (x?.type === "write_resource" && y?.type === "write_resource") {
          expect(x.data()).toBeDefined()
          expect(y.data()).toBe(x.data())
        }
      }
      sameJson(transfers[0]!, transfers[1]!, "0x1::fungible_asset::Metadata")
      const [last, beforeLast] = [transfers[transfers.length - 1]!, transfers[transfers.length - 2]!]
      for (let nth = 0; nth < 2; nth++) sameJson(beforeLast, last, "0x1::object::ObjectCore", nth)
      for (const t of batch) {
        const rest = (await aptos.getTransactionByVersion({ ledgerVersion: t.version })) as unknown as {
          hash: string
          changes: Array<{
            type: string
            address?: string
            state_key_hash: string
            data?: { type: string; data: unknown }
          }>
          events?: Array<{ guid: { account_address: string; creation_number: string }; type: string; data: unknown }>
        }
        expect(t.hash).toBe(rest.hash)
        const ours = t.changes.map((c) => ({
          type: c.type,
          address: "address" in c ? c.address : undefined,
          state_key_hash: c.stateKeyHash,
          resource: c.type === "write_resource" ? c.typeStr : undefined,
          data: c.type === "write_resource" ? c.data() : undefined
        }))
        const theirs = rest.changes.map((c) => ({
          type: c.type,
          address: c.address === undefined ? undefined : long(c.address),
          state_key_hash: c.state_key_hash,
          resource: c.type === "write_resource" ? c.data!.type : undefined,
          data: c.type === "write_resource" ? c.data!.data : undefined
        }))
        expect(ours).toEqual(theirs)
        expect(t.events.map((e) => [e.accountAddress, e.creationNumber.toString(), e.type, e.data()])).toEqual(
          (rest.events ?? []).map((e) => [long(e.guid.account_address), e.guid.creation_number, e.type, e.data])
        )
      }
    })
  }, 120_000)
})
