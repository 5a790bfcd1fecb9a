/**
 * The front process outlives no node: `movenode` (the built command, whose local chain has a front
 * process by default) killed with -9 while connections wait to be handed over — Node then defers
 * the front's 'disconnect' for the descriptor in flight, which the dead node never acknowledges —
 * and its front still exits, letting the port and the store go.
 */
import { mkdtempSync, rmSync } from "node:fs"
import net from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, assert, describe, it } from "vitest"
import { frontsOf, startApiOnly } from "../../support/frontProcesses.js"
import { alive } from "../../support/procfs.js"

const dataDir = mkdtempSync(join(tmpdir(), "movenode-front-orphan-"))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

describe.skipIf(process.platform !== "linux")("the front process, its node killed -9", () => {
  it("exits though connections were waiting to be handed over", async () => {
    const { child, port, api } = await startApiOnly(dataDir)
    const sockets: net.Socket[] = []
    try {
      // A read (the front loads its reads), then many connections whose first request is a submission.
      assert.strictEqual((await fetch(`${api}/v1/accounts/0x1`)).status, 200)
      const [front] = frontsOf(child.pid!)
      assert.isDefined(front, "no front process")
      for (let i = 0; i < 300; i++) {
        const s = net.connect(port, "127.0.0.1", () =>
          s.write("POST /v1/view HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
        )
        s.on("error", () => {})
        sockets.push(s)
      }
      await new Promise((r) => setTimeout(r, 200))
      child.kill("SIGKILL")
      // It looks twice a second; ten seconds is a generous bound for a process that is not stuck.
      for (let i = 0; i < 100 && alive(front!); i++) await new Promise((r) => setTimeout(r, 100))
      assert.isFalse(alive(front!), "the front process outlived its node")
    } finally {
      for (const s of sockets) s.destroy()
      if (child.exitCode === null) child.kill("SIGKILL")
    }
  }, 60_000)
})
