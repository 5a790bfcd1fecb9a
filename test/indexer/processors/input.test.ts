/**
 * The processors' input against the REST API's rendering of the same transactions: the changes in
 * the same order (so `write_set_change_index` is the reference's), with the same types, addresses,
 * state key hashes and Move values; the events with the same keys, types and data. Two transfers, so
 * that the second's unchanged resource-group members (APT's metadata object beside its supply) are
 * served from the input's cache of decoded values (resourceJsonCache.ts), and must still match.
 */
import { Account, Ed25519PrivateKey } from "@aptos-labs/ts-sdk"
import { describe, expect, it } from "vitest"
import { transferToNewAccount, withIndexedChain } from "./support/indexedChain.js"

const long = (a: string) => "0x" + a.slice(2).padStart(64, "0")

describe("IndexerTransaction", () => {
  it("lists changes and events as GET /transactions/by_version does", async () => {
    await withIndexedChain(async ({ chain, aptos, transactions }) => {
      const alice = Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(chain.accounts[0]!.privateKey) })
      await transferToNewAccount(aptos, alice, 5)
      await transferToNewAccount(aptos, alice, 7)
      const batch = await transactions()
      expect(batch.length).toBeGreaterThan(3)
      // The metadata object's `Metadata` member, unchanged, written by both transfers' fee burns:
      // the second transfer's is the first's JSON, kept (the cache served it).
      const transfers = batch.filter((t) => t.user?.sender === alice.accountAddress.toStringLong())
      expect(transfers.length).toBe(2)
      const metadataOf = (t: (typeof batch)[number]) =>
        t.changes.find((c) => c.type === "write_resource" && c.typeStr === "0x1::fungible_asset::Metadata")
      const [first, second] = transfers.map(metadataOf)
      expect(first?.type === "write_resource" && second?.type === "write_resource").toBe(true)
      if (first?.type === "write_resource" && second?.type === "write_resource") {
        expect(first.data()).toBeDefined()
        expect(second.data()).toBe(first.data())
      }
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
