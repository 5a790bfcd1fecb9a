/**
 * A bounded submission flood (issue 22; `scripts/flood.mjs` is the measured version, 512 clients):
 * 64 kept-alive clients submit signed transfers back to back, one body in eight garbage, while
 * probes open a new connection each for the health check, the readiness server and a plain read.
 * Asserted: behaviour only (every probe answered 200, every submission answered 202 or 400 with
 * the error body, blocks committed during the flood, every accepted transfer committed after it),
 * never a duration.
 */
import http from "node:http"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { addressToLongString } from "../../src/domain/AccountAddress.js"
import { LocalChain } from "../../src/LocalChain.js"
import { signedTransfer } from "../support/signedTransfer.js"

const CLIENTS = 64
const ROUNDS = 12 // submissions per client

interface Answer {
  readonly status: number
  readonly body: string
}

const request = (url: string, options: http.RequestOptions, body?: Uint8Array): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const req = http.request(url, options, (res) => {
      const chunks: Buffer[] = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }))
      res.on("error", reject)
    })
    req.on("error", reject)
    req.end(body)
  })

describe("a submission flood", () => {
  it.live(
    "answers every probe on a new connection, every submission 202 or 400, and commits what it accepted",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const chain = yield* LocalChain.spawn({ accounts: CLIENTS, readiness: { host: "127.0.0.1", port: 0 } })
          const info0 = yield* Effect.promise(() =>
            fetch(chain.apiUrl).then((r) => r.json() as Promise<{ block_height: string }>)
          )
          const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS })
          const submitUrl = `${chain.apiUrl}/transactions`
          const post = (body: Uint8Array) =>
            request(
              submitUrl,
              {
                method: "POST",
                agent,
                headers: { "content-type": "application/x.aptos.signed_transaction+bcs", "content-length": body.length }
              },
              body
            )
          const expiration = BigInt(Math.floor(Date.now() / 1000) + 600)
          const signed = (c: number, sequenceNumber: bigint): Uint8Array =>
            signedTransfer(chain.accounts[c]!, chain.accounts[(c + 1) % CLIENTS]!.address, sequenceNumber, {
              expirationTimestampSecs: expiration
            })
          // Signed before the flood starts (noble's signing is slow and would pace the clients).
          const bodies = Array.from({ length: CLIENTS }, (_, c) =>
            Array.from({ length: ROUNDS }, (_, k) => signed(c, BigInt(k)))
          )
          const garbage = new TextEncoder().encode("not a signed transaction")
          const statuses = new Map<number, number>()
          const refusals: string[] = []
          const accepted = new Array<number>(CLIENTS).fill(0)
          let flooding = true
          const client = async (c: number) => {
            for (let k = 0; k < ROUNDS; k++) {
              if ((c + k) % 8 === 0) {
                const a = await post(garbage)
                statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1)
                refusals.push(a.body)
              }
              const a = await post(bodies[c]![k]!)
              statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1)
              if (a.status === 202) accepted[c]!++
            }
          }
          const probes: Array<{ readonly what: string; readonly status: number }> = []
          const targets = [
            ["healthy", `${chain.apiUrl}/-/healthy`],
            ["ready", chain.readinessUrl!],
            ["read", `${chain.apiUrl}/accounts/0x1`]
          ] as const
          const probing = (async () => {
            while (flooding) {
              // agent: false: a new connection per probe, as a balancer's.
              const answers = await Promise.all(
                targets.map(([what, url]) =>
                  request(url, { agent: false }).then(
                    (a) => ({ what, status: a.status }),
                    () => ({ what, status: 0 })
                  )
                )
              )
              probes.push(...answers)
              await new Promise((r) => setTimeout(r, 20))
            }
          })()
          yield* Effect.promise(async () => {
            await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)))
            flooding = false
            await probing
          })
          agent.destroy()
          assert.isAbove(probes.length, 0)
          assert.deepStrictEqual(
            probes.filter((p) => p.status !== 200),
            [],
            "every probe on a new connection is answered 200 during the flood"
          )
          assert.deepStrictEqual([...statuses.keys()].sort(), [202, 400])
          for (const body of refusals) assert.match(body, /"error_code":"invalid_input"/)
          assert.strictEqual(
            accepted.reduce((a, b) => a + b, 0),
            CLIENTS * ROUNDS
          )
          // Everything accepted is committed: each sender's sequence number reaches ROUNDS.
          for (let c = 0; c < CLIENTS; c++) {
            const who = addressToLongString(chain.accounts[c]!.address)
            let seq = 0
            for (let i = 0; i < 500 && seq < ROUNDS; i++) {
              const a = yield* Effect.promise(() => fetch(`${chain.apiUrl}/accounts/${who}`).then((r) => r.json()))
              seq = Number((a as { sequence_number: string }).sequence_number)
              if (seq < ROUNDS) yield* Effect.sleep(20)
            }
            assert.strictEqual(seq, ROUNDS)
          }
          const info1 = yield* Effect.promise(() =>
            fetch(chain.apiUrl).then((r) => r.json() as Promise<{ block_height: string }>)
          )
          assert.isAbove(Number(info1.block_height), Number(info0.block_height))
        })
      ),
    120_000
  )
})
