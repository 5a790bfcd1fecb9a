/**
 * Issue 22: requests with a body are handled within a per-turn budget (`HttpConfig.bodyIntake`,
 * the local chain's `intakeBudget`), so a turn that reads hundreds of submissions at once does not
 * decode and dispatch them all. Here the intake is a queue the test releases by hand: a request
 * with a body waits in it, one without does not, and past `maxConnections` waiting the answer is
 * 503 with the error body instead of one more held request.
 */
import { connect } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import type { BodyIntake } from "../../src/http/HttpConfig.js"
import { startServer } from "./serverHarness.js"
import { makeTestNode } from "./TestNode.js"

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const c of closers.splice(0)) await c()
})

/** An intake that holds every task until `release`. */
const heldIntake = () => {
  const tasks: Array<() => void> = []
  const intake: BodyIntake & { release: () => void } = {
    run: (task) => {
      tasks.push(task)
    },
    get waiting() {
      return tasks.length
    },
    release: () => {
      for (const t of tasks.splice(0)) t()
    }
  }
  return intake
}

const post = (url: string) =>
  fetch(`${url}/v1/view`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ function: "0x1::coin::balance", type_arguments: [], arguments: [] })
  })

const until = async (f: () => boolean) => {
  for (let i = 0; i < 500 && !f(); i++) await new Promise((r) => setTimeout(r, 10))
  expect(f()).toBe(true)
}

describe("the body intake", () => {
  it("holds a request with a body until the intake runs it; a request without one is answered meanwhile", async () => {
    const direct = await startServer(makeTestNode())
    closers.push(direct.close)
    const unqueued = (await post(direct.url)).status
    const intake = heldIntake()
    const server = await startServer(makeTestNode(), { bodyIntake: intake })
    closers.push(server.close)
    let answered: number | undefined
    const pending = post(server.url).then((r) => {
      answered = r.status
      return r.text()
    })
    await until(() => intake.waiting === 1)
    expect((await fetch(`${server.url}/v1/-/healthy`)).status).toBe(200)
    expect(answered).toBeUndefined()
    intake.release()
    await pending
    // The same answer as the request let through at once (the intake changes when, not what).
    expect(answered).toBe(unqueued)
  })

  it("answers 503 with the error body once as many requests wait as the node holds connections", async () => {
    const intake = heldIntake()
    const server = await startServer(makeTestNode(), { bodyIntake: intake, maxConnections: 3 })
    closers.push(server.close)
    // Four requests pipelined on one connection: only pipelining holds more than one per connection.
    const body = JSON.stringify({ function: "0x1::coin::balance", type_arguments: [], arguments: [] })
    const one = `POST /v1/view HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`
    const socket = connect(server.info.address.port, "127.0.0.1")
    let got = ""
    socket.on("data", (d) => {
      got += d.toString("latin1")
    })
    socket.write(one.repeat(4))
    await until(() => intake.waiting === 3)
    intake.release()
    await until(() => (got.match(/HTTP\/1\.1 \d{3} /g) ?? []).length === 4)
    socket.destroy()
    const statuses = [...got.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]))
    expect(statuses.slice(0, 3).every((s) => s !== 503)).toBe(true)
    expect(statuses[3]).toBe(503)
    expect(got).toMatch(/"error_code":"web_framework_error"/)
    expect(got).toMatch(/3 requests wait to be handled/)
  })
})
