#!/usr/bin/env node
/**
 * The `movenode` executable (package.json `bin`, bundled to dist/bin/movenode.js): a plain
 * `#!/usr/bin/env node` launcher, since `env -S` (needed to pass Node.js flags in a shebang) is
 * missing from BusyBox and older coreutils.
 *
 * The one flag the command wants on the command line is `--max-semi-space-size=8` (a 16 MB young
 * generation instead of 32 MB; docs/benchmarks.md, "Memory"): V8 sizes the heap when the process
 * starts, so `v8.setFlagsFromString` is too late for it. Where Node.js has `process.execve`
 * (≥ 22.15 / 23.11) the launcher replaces itself with the same command plus the flag, before
 * loading anything else: same process id, no second process. On older Node.js it runs without the
 * flag (the young generation may grow to 32 MB); `npm start` passes the flag itself.
 */
const SEMI_SPACE_FLAG = "--max-semi-space-size=8"

const execve = (process as { execve?: (file: string, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv) => never })
  .execve
const hasFlag = process.execArgv.some((a) => a.startsWith("--max-semi-space-size"))
if (!hasFlag && typeof execve === "function" && process.env.MOVENODE_NO_REEXEC === undefined)
  execve(process.execPath, [process.execPath, SEMI_SPACE_FLAG, ...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    MOVENODE_NO_REEXEC: "1"
  })

const { main } = await import("./cli.js")
main(process.argv.slice(2))
