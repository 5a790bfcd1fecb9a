/**
 * Test helper for the checks that ask V8 itself about hidden classes (`%HaveSameMap`,
 * `%OptimizeFunctionOnNextCall`): such syntax needs `--allow-natives-syntax`, which vitest's workers
 * do not have, so the check runs as a script in a child Node over the compiled modules (`dist/`,
 * built by `npm test` before vitest runs).
 */
import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"

/** The path of a compiled module, `dist/` + `path` (e.g. `move/vm/GasMeter.js`), for a script's `import`. */
export const distModule = (path: string): string => fileURLToPath(new URL(`../../dist/${path}`, import.meta.url))

/** Runs `script` (an ES module) with V8's native syntax: its stderr, and its stdout parsed as JSON. */
export const runWithNativeSyntax = (script: string): { readonly stderr: string; readonly output: unknown } => {
  const run = spawnSync(process.execPath, ["--allow-natives-syntax", "--input-type=module", "-e", script], {
    encoding: "utf8",
    timeout: 30_000
  })
  return { stderr: run.stderr, output: JSON.parse(run.stdout.trim()) }
}
