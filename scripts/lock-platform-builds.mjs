#!/usr/bin/env node
// Completes package-lock.json with the optional platform builds it names but lacks, so `npm ci`
// accepts it (`Missing: @biomejs/cli-darwin-arm64@ from lock file`).
//
// Why they go missing: npm records every platform build of a package like @biomejs/biome or
// msgpackr-extract in the lock, reading each one's metadata from the registry. The registry this
// project's machines install from holds only the builds some machine here has installed (the
// linux ones), so `npm install` here cannot record the darwin/win32/musl/android builds, writes a
// lock without them, and `npm ci` (which checks that every dependency the lock names is in it)
// refuses that lock. The entries added here are what the public registry would give: version,
// os/cpu/libc (from the package's name, the convention all these packages follow) and the
// sibling builds' licence and engines; no integrity (npm checks none for a package it never
// fetches, and fetches only the builds for its own platform). Run it after an `npm install` that
// changed the lock: `node scripts/lock-platform-builds.mjs`; test/package.test.ts fails until then.
import { readFileSync, writeFileSync } from "node:fs"
const file = process.argv[2] ?? "package-lock.json"
const lock = JSON.parse(readFileSync(file, "utf8"))
const pkgs = lock.packages
const platformOf = (name) => {
  const m = /-(android|darwin|linux|win32|freebsd)-(arm64|x64|arm|ia32)(?:-(musl|gnu))?$/.exec(name)
  if (m === null) return undefined
  const [, os, cpu, libc] = m
  return { os, cpu, libc: os === "linux" ? (libc === "musl" ? "musl" : "glibc") : undefined }
}
let added = 0
for (const [path, entry] of Object.entries(pkgs)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const at = `node_modules/${dep}`
    const nested = path === "" ? at : `${path}/${at}`
    if (pkgs[at] !== undefined || pkgs[nested] !== undefined) continue
    const p = platformOf(dep)
    if (p === undefined) throw new Error(`${dep}: not a platform build; run npm install`)
    const sibling = Object.entries(entry.optionalDependencies).map(([d]) => pkgs[`node_modules/${d}`]).find((e) => e !== undefined)
    pkgs[at] = {
      version,
      cpu: [p.cpu],
      ...(entry.dev || sibling?.dev ? { dev: true } : {}),
      ...(p.libc !== undefined && sibling?.libc !== undefined ? { libc: [p.libc] } : {}),
      ...(sibling?.license !== undefined ? { license: sibling.license } : {}),
      optional: true,
      os: [p.os],
      ...(sibling?.engines !== undefined ? { engines: sibling.engines } : {})
    }
    added++
    console.log(`added ${at}@${version}`)
  }
}
lock.packages = Object.fromEntries(Object.entries(pkgs).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : a > b ? 1 : 0)))
writeFileSync(file, JSON.stringify(lock, null, 2) + "\n")
console.log(`${added} entries added`)
