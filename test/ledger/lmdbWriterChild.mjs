// Child of damagedStore.test.ts: commits to an LMDB store at <path> for <seconds>, as the ledger
// opens one (lmdb-js, overlappingSync): small transactions of one to five values of 100 B to 20 KB
// (overflow pages included), one after another, so the file grows at every commit. Prints
// "writing" once its first commit is done.
// Usage: node lmdbWriterChild.mjs <path> <seconds>
import { open } from "lmdb"

const [path, seconds] = process.argv.slice(2)
const env = open({
  path,
  mapSize: 2 ** 30,
  overlappingSync: true,
  keyEncoding: "binary",
  encoding: "binary",
  compression: false
})
const db = env.openDB({ name: "values", keyEncoding: "binary", encoding: "binary" })
const until = Date.now() + Number(seconds) * 1000
let k = 0
let announced = false
while (Date.now() < until) {
  const puts = []
  for (let i = 0; i <= k % 5; i++) {
    const key = Buffer.alloc(8)
    key.writeBigUInt64BE(BigInt(k++))
    puts.push(db.put(key, Buffer.alloc(100 + ((k * 7919) % 20_000), k & 255)))
  }
  await Promise.all(puts)
  if (!announced) {
    announced = true
    process.stdout.write("writing\n")
  }
}
await env.close()
