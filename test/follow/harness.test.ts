/**
 * The read-replica harness (scripts/scale-out.mjs, docs/scale-out.md) in its short form: a leader,
 * two followers and HAProxy on loopback; the same requests at one version answer byte for byte
 * alike on all three; a follower killed with SIGKILL under load is taken out by the health check,
 * no reader sees a 5xx or its ledger version go backwards (cookie stickiness), and the follower,
 * restarted, is back in; a read through the balancer right after a commit, with the version header,
 * is never stale. Needs Debian's haproxy (CI installs it) and the built bundle.
 */
import { spawnSync } from "node:child_process"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { assert, describe, it } from "vitest"

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..")
const haproxy = spawnSync("haproxy", ["-v"], { encoding: "utf8" })
const hasHaproxy = haproxy.status === 0

describe("the scale-out harness", () => {
  if (!hasHaproxy) {
    it.skip("skipped: haproxy is not installed (apt-get install haproxy; CI installs it)", () => {})
    return
  }
  it("leader + 2 followers + HAProxy: identical answers, a killed follower drained without client errors, then back", () => {
    const run = spawnSync(process.execPath, [join(repoRoot, "scripts", "scale-out.mjs"), "smoke"], {
      encoding: "utf8",
      timeout: 240_000
    })
    assert.strictEqual(run.status, 0, `smoke failed:\n${run.stdout}\n${run.stderr}`)
    const result = JSON.parse(run.stdout.trim().split("\n").at(-1)!)
    assert.isTrue(result.identical.allIdentical, JSON.stringify(result.identical.differing))
    assert.strictEqual(result.failover.clientErrorsOr5xx, 0, JSON.stringify(result.failover))
    assert.strictEqual(result.failover.versionWentBackwards, 0)
    assert.isDefined(result.failover.haproxyMarkedDownAfterMs)
    assert.isDefined(result.failover.restartedUpAfterMs)
    // Read-your-writes through the balancer with the version header: never stale.
    assert.strictEqual(result.ryw.pinned.stale, 0, JSON.stringify(result.ryw))
  }, 300_000)
})
