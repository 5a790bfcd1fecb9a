/**
 * Funds `address` through a local chain's faucet and waits until its transactions are committed:
 * the faucet answers once they are *accepted* (the reference's `wait_for_transactions = false`), so
 * a test that reads the chain right after `POST /fund` may not see them yet. Resolves with the
 * committed transactions as `wait_by_hash` answers them (JSON).
 */
import * as Effect from "effect/Effect"
import { expect } from "vitest"

export const fundCommitted = (
  chain: { readonly apiUrl: string; readonly faucetUrl?: string | undefined },
  address: string,
  amount: number
): Effect.Effect<ReadonlyArray<any>> =>
  Effect.promise(async () => {
    const funded = await fetch(`${chain.faucetUrl}/fund`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ address, amount })
    })
    expect(funded.status).toBe(200)
    const { txn_hashes } = (await funded.json()) as { readonly txn_hashes: ReadonlyArray<string> }
    const committed = []
    for (const hash of txn_hashes) {
      const waited = await fetch(`${chain.apiUrl}/transactions/wait_by_hash/0x${hash.replace(/^0x/, "")}`)
      expect(waited.status).toBe(200)
      committed.push(await waited.json())
    }
    return committed
  })
