// Child of crash.test.ts: commits blocks through the compiled LMDB layer forever, printing
// "begin <height>" before each commitBlock and "committed <height>" after it returns, until killed.
// Usage: node crashChild.mjs <store path> [flushed|committed|written]  (the store's durability, default flushed)
import { Effect } from "effect"
import { LedgerLmdb } from "../../dist/ledger/index.js"

const path = process.argv[2]
const durability = process.argv[3] ?? "flushed"
const TXNS_PER_BLOCK = 4
const WRITES_PER_TXN = 60

const address = (n) => {
  const a = new Uint8Array(32)
  a[31] = n
  return a
}

// BCS(StateKey::TableItem{handle: 0xcc, key: [k]}) built by hand: variant 1, handle, ULEB length 1, k.
const keyBytes = (k) => {
  const out = new Uint8Array(35)
  out[0] = 1
  out[32] = 0xcc
  out[33] = 1
  out[34] = k
  return out
}

const userTxn = (seq) => ({
  _tag: "UserTransaction",
  signed: {
    rawTransaction: {
      sender: address(0xaa),
      sequenceNumber: seq,
      payload: {
        _tag: "EntryFunction",
        entryFunction: {
          module: { address: address(1), name: "m" },
          function: "f",
          typeArgs: [],
          args: []
        }
      },
      maxGasAmount: 1000n,
      gasUnitPrice: 100n,
      expirationTimestampSecs: 1n,
      chainId: 4
    },
    authenticator: {
      _tag: "Ed25519",
      publicKey: new Uint8Array(32),
      signature: new Uint8Array(64)
    }
  }
})

const blockAt = (height) => ({
  epoch: 1n,
  timestampUsec: height * 1000n,
  transactions: Array.from({ length: TXNS_PER_BLOCK }, (_, i) => {
    const seq = height * BigInt(TXNS_PER_BLOCK) + BigInt(i)
    const base = Number(seq % 200n)
    const entries = Array.from({ length: WRITES_PER_TXN }, (_, j) => (base + j * 3) % 256)
      .filter((k, j, ks) => ks.indexOf(k) === j)
      .sort((a, b) => a - b)
      .map((k) => ({
        key: {
          _tag: "TableItem",
          handle: address(0xcc),
          key: new Uint8Array([k])
        },
        keyBytes: keyBytes(k),
        // Every seventh write is a deletion; values are large enough for commits to take time.
        op:
          (k + Number(seq)) % 7 === 0
            ? { _tag: "Deletion" }
            : {
                _tag: "Modification",
                data: new Uint8Array(512).fill(Number(seq % 251n))
              }
      }))
    return {
      transaction: userTxn(seq),
      writeSet: { entries },
      events: [],
      outcome: {
        gasUsed: 1n,
        status: { _tag: "Success" },
        vmStatus: "Executed successfully"
      }
    }
  })
})

const program = Effect.gen(function* () {
  const ledger = yield* LedgerLmdb.open({ path, chainId: 4, durability })
  const head = ledger.head()
  let height = head === undefined ? 0n : head.latestHeight + 1n
  for (;;) {
    process.stdout.write(`begin ${height}\n`)
    const info = yield* ledger.service.commitBlock(blockAt(height))
    process.stdout.write(`committed ${info.height}\n`)
    height++
  }
})

Effect.runPromise(Effect.scoped(program)).catch((e) => {
  process.stderr.write(`child failed: ${e}\n`)
  process.exit(2)
})
