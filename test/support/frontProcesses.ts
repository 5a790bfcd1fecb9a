/** Test helper for the front process's tests (src/http/front): its processes, found in /proc. */
import { readdirSync, readFileSync } from "node:fs"

/** The pids of `parent`'s children running the front's program (Linux /proc; none elsewhere). */
export const frontsOf = (parent: number): number[] =>
  process.platform !== "linux"
    ? []
    : readdirSync("/proc").flatMap((pid) => {
        if (!/^\d+$/.test(pid)) return []
        try {
          const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
          const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
          return ppid === parent && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("frontMain.js") ? [Number(pid)] : []
        } catch {
          return []
        }
      })
