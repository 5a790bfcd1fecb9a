import * as Result from "effect/Result"
import { Bcs } from "../../bcs/index.js"
import type { SignedTransaction } from "../../domain/Transaction.js"
import { signedTransactionCodec } from "../../domain/PayloadCodec.js"

/** What `pooledTransaction` reads of a pool entry (`TxPool.PoolEntry`). */
export interface PooledBytes {
  readonly signedBcs: Uint8Array
  readonly hashKey: string
}

/**
 * A pooled transaction, decoded again from the bytes the pool keeps. The signature check admission
 * made stays with the entry (`signatureCheck`): the block's execution is given it
 * (`ChainVm.executeUser`), so it checks nothing again.
 *
 * Why the pool keeps bytes: a transaction waits in the pool for as long as the chain is behind (a
 * flood fills it to its capacity, 100,000 by default), and its decoded tree (the payload, the
 * authenticator, a dozen byte views) stayed with it: ~1.1 KB of small objects a transfer. A
 * pooled transfer now holds ~2.2 KB of heap (with one hidden class for all entries,
 * `TxPool.pooled`) instead of ~3.2 KB (`scripts/bench-pool-memory.mjs`, docs/benchmarks.md, session
 * 40); the copy made when its block executes, or for an answer, is short-lived. Decoding again
 * takes ~0.6 µs a transfer, and cannot fail: the bytes were decoded once already.
 *
 * The check is kept whole: its signers are ~0.9 KB of the remaining ~2.2 KB, but a mark in their
 * place (signers derived again at execution, ~1 µs) moved their allocation into the block, where
 * it lives until the commit and was promoted all the same (session 40: ~1 KB more promoted a
 * transfer at full load, the CPU unchanged).
 */
export const pooledTransaction = (entry: PooledBytes): SignedTransaction => {
  const decoded = Bcs.decode(signedTransactionCodec, entry.signedBcs)
  if (Result.isFailure(decoded))
    throw new Error(`pooled transaction ${entry.hashKey} no longer decodes: ${decoded.failure.message}`)
  return decoded.success
}
