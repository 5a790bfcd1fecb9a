#!/usr/bin/env node
// `npm start`'s first step: builds dist/ only when a build input is newer than the build's outputs
// (or an output is missing), and quietly: one line when it builds, the build's own output only when
// it fails. A fresh `npm install` has already built (package.json `prepare`), so usually nothing runs.
import { execFileSync } from "node:child_process"
import { readdirSync, statSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const inputs = ["src", "package.json", "tsconfig.json", "tsconfig.build.json", "rolldown.config.mjs"]
const outputs = ["dist/index.js", "dist/bin/movenode.js", "dist/bin/viewWorker.js"]

const newest = (path) => {
  const s = statSync(path)
  if (!s.isDirectory()) return s.mtimeMs
  let t = 0
  for (const name of readdirSync(path)) t = Math.max(t, newest(join(path, name)))
  return t
}
const oldestOutput = () => {
  try {
    return Math.min(...outputs.map((p) => statSync(join(root, p)).mtimeMs))
  } catch {
    return -1 // an output is missing
  }
}

const built = oldestOutput()
if (built < 0 || Math.max(...inputs.map((p) => newest(join(root, p)))) > built) {
  process.stderr.write(`movenode: ${built < 0 ? "no build yet" : "sources changed"}, building dist/ …\n`)
  try {
    execFileSync(process.platform === "win32" ? "npm.cmd" : "npm", ["run", "--silent", "build"], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"]
    })
  } catch (e) {
    process.stderr.write(`${e.stdout ?? ""}${e.stderr ?? ""}movenode: the build failed\n`)
    process.exit(1)
  }
}
