/**
 * The kill -9 tests' common part: each runs one of `scripts/crash-*.mjs` against the built command
 * (`npm run build` comes before the tests) and judges the summary it prints as its last JSON line.
 */
import { execFile } from "node:child_process"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"

const bundle = fileURLToPath(new URL("../../dist/bin/movenode.js", import.meta.url))

/** Runs `scripts/<name>` with `args` and returns its last output line, parsed: the run's summary. */
export const runCrashScript = (
  name: string,
  args: ReadonlyArray<string>,
  timeoutMs: number
): Promise<Record<string, any>> => {
  if (!existsSync(bundle)) return Promise.reject(new Error(`${bundle} is missing: run \`npm run build\` first`))
  const script = fileURLToPath(new URL(`../../scripts/${name}`, import.meta.url))
  return new Promise<string>((resolve, reject) =>
    execFile(process.execPath, [script, ...args], { timeout: timeoutMs }, (error, stdout, stderr) =>
      error === null ? resolve(stdout) : reject(new Error(`${error.message}\n${stdout}\n${stderr}`))
    )
  ).then((out) => JSON.parse(out.trim().split("\n").at(-1)!) as Record<string, any>)
}
