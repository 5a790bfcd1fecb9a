/**
 * Test helpers for the front process's tests (src/http/front): the built `movenode` started with
 * only its API (the front on, as `npm start` runs it), and the front's processes, found in /proc.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { waitForLine } from "./childProcess.js"
import { childrenOf } from "./procfs.js"

const bin = new URL("../../dist/bin/movenode.js", import.meta.url).pathname

/**
 * Starts `movenode` over `dataDir` with its API on a free port and nothing else (no faucet,
 * readiness, GraphQL or index); resolves with the child and the API's port once it listens.
 */
export const startApiOnly = async (
  dataDir: string
): Promise<{ readonly child: ChildProcess; readonly port: number; readonly api: string }> => {
  const child = spawn(
    process.execPath,
    [
      bin,
      "--data-dir",
      dataDir,
      "--listen",
      "127.0.0.1:0",
      "--faucet-listen",
      "off",
      "--ready-listen",
      "off",
      "--graphql-listen",
      "off",
      "--no-indexer",
      "--quiet"
    ],
    { stdio: ["ignore", "pipe", "pipe"] }
  )
  try {
    const [, api] = await waitForLine(child, /API\s+(http:\/\/\S+)\/v1/, 30_000)
    return { child, port: Number(new URL(api!).port), api: api! }
  } catch (e) {
    child.kill("SIGKILL")
    throw e
  }
}

/** The pids of `parent`'s children running the front's program (Linux /proc; none elsewhere). */
export const frontsOf = (parent: number): number[] =>
  childrenOf(parent).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("frontMain.js")
    } catch {
      return false
    }
  })
