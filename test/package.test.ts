/**
 * The npm package as the ecosystem sees it (package.json, package-lock.json, what `npm pack`
 * ships): the lock `npm ci` accepts, an `engines` claim every runtime dependency agrees with,
 * `effect` as a peer, a tarball with the build, the genesis and the licence and nothing else.
 * test/package/consumer.test.ts installs that tarball into a project of its own.
 */
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"))
const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8"))
type LockEntry = {
  version?: string
  dev?: boolean
  optional?: boolean
  engines?: { node?: string }
  optionalDependencies?: Record<string, string>
}
const entries = lock.packages as Record<string, LockEntry>

// ---- a small semver range check (the forms engines fields use: >=, >, <, <=, =, ^, ~, x, ||) ----
type Version = readonly [number, number, number]
const versionOf = (s: string): Version => {
  const [a = 0, b = 0, c = 0] = s
    .replace(/^v/, "")
    .split(".")
    .map((p) => (/^\d+$/.test(p) ? Number(p) : 0))
  return [a, b, c]
}
const compare = (a: Version, b: Version): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]
const comparatorHolds = (v: Version, comparator: string): boolean => {
  const m = /^(>=|<=|>|<|=|\^|~)?\s*v?([\dx*]+(?:\.[\dx*]+)?(?:\.[\dx*]+)?)$/.exec(comparator.trim())
  if (m === null) throw new Error(`engines comparator not understood: ${comparator}`)
  const [, op = "=", text = ""] = m
  const parts = text.split(".")
  const wildcard = parts.findIndex((p) => p === "x" || p === "*")
  const base = versionOf(parts.map((p) => (p === "x" || p === "*" ? "0" : p)).join("."))
  if (op === "=" && (wildcard >= 0 || parts.length < 3)) {
    const fixed = wildcard >= 0 ? wildcard : parts.length
    return v.slice(0, fixed).every((n, i) => n === base[i])
  }
  const c = compare(v, base)
  if (op === ">=") return c >= 0
  if (op === ">") return c > 0
  if (op === "<") return c < 0
  if (op === "<=") return c <= 0
  if (op === "=") return c === 0
  if (op === "^") return c >= 0 && v[0] === base[0] && (base[0] !== 0 || v[1] === base[1])
  return c >= 0 && v[0] === base[0] && v[1] === base[1] // ~
}
const satisfies = (version: string, range: string): boolean =>
  range.split("||").some((alternative) =>
    alternative
      .trim()
      .replace(/(>=|<=|>|<|=|\^|~)\s+/g, "$1")
      .split(/\s+/)
      .every((c) => c === "" || comparatorHolds(versionOf(version), c))
  )

describe("package.json and the lock", () => {
  it("the range check reads engines fields as npm does", () => {
    expect(satisfies("20.19.0", ">= 20.19.0")).toBe(true)
    expect(satisfies("20.18.9", ">=20.19.0")).toBe(false)
    expect(satisfies("20.19.0", ">=22.19.0")).toBe(false)
    expect(satisfies("22.12.0", "^22.12.0 || ^24.0.0 || >=26.0.0")).toBe(true)
    expect(satisfies("23.0.0", "^22.12.0 || ^24.0.0 || >=26.0.0")).toBe(false)
    expect(satisfies("20.0.0", "20.x")).toBe(true)
    expect(satisfies("21.0.0", ">=14 <21")).toBe(false)
  })

  it("the lock has an entry for every optional dependency it names (else `npm ci` refuses it)", () => {
    const missing: Array<string> = []
    for (const [path, entry] of Object.entries(entries))
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        const nested = path === "" ? `node_modules/${name}` : `${path}/node_modules/${name}`
        if (entries[nested] === undefined && entries[`node_modules/${name}`] === undefined) missing.push(name)
      }
    expect(missing, "run node scripts/lock-platform-builds.mjs").toEqual([])
    // npm's lock lists the optional dependencies among the dependencies too.
    expect(lock.packages[""].dependencies).toEqual({ ...pkg.dependencies, ...pkg.optionalDependencies })
    expect(lock.packages[""].optionalDependencies ?? {}).toEqual(pkg.optionalDependencies ?? {})
  })

  it("engines is truthful: no runtime dependency excludes a Node.js version the package claims", () => {
    const claim: string = pkg.engines.node
    // The lowest version claimed and the first release of every later major line.
    const minimum = claim.replace(/^>=\s*/, "")
    expect(/^\d+\.\d+\.\d+$/.test(minimum), `engines.node should be ">=X.Y.Z", is "${claim}"`).toBe(true)
    const claimed = [minimum, "21.0.0", "22.0.0", "23.0.0", "24.0.0", "25.0.0", "26.0.0"].filter((v) =>
      satisfies(v, claim)
    )
    const refusals: Array<string> = []
    for (const [path, entry] of Object.entries(entries)) {
      if (path === "" || entry.dev === true || entry.engines?.node === undefined) continue
      for (const v of claimed)
        if (!satisfies(v, entry.engines.node))
          refusals.push(`${path}@${entry.version} needs ${entry.engines.node}, not ${v}`)
    }
    expect(refusals).toEqual([])
    // This project's machines (and CI) run the version the tests run on.
    expect(satisfies(process.versions.node, claim)).toBe(true)
  })

  it("effect is a peer dependency (one copy in an application), and a devDependency for the build", () => {
    expect(pkg.dependencies.effect).toBeUndefined()
    expect(pkg.peerDependencies.effect).toBeDefined()
    expect(pkg.devDependencies.effect).toBe(pkg.peerDependencies.effect)
    expect(pkg.dependencies["@effect/platform-node"]).toBeUndefined()
  })

  it("the README's two commands are what CI runs and what package.json defines", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8")
    const ci = readFileSync(join(root, ".ci", "run"), "utf8")
    expect(readme).toContain("```sh\nnpm ci && npm start\n```")
    expect(readme).toContain("```sh\nnpm ci && npm test\n```")
    expect(ci).toMatch(/^npm ci\b/m)
    expect(ci).toMatch(/^npm test$/m)
  })

  it("builds on install from git (prepare) and starts without rebuilding needlessly", () => {
    expect(pkg.scripts.prepare).toBe("npm run build")
    // `npm start -- --data-dir X` must not collide with a flag the script passes.
    expect(pkg.scripts.start).not.toMatch(/--(genesis|data-dir|listen|config)\b/)
    expect(pkg.scripts.start).toMatch(/^node scripts\/build-if-stale\.mjs && /)
  })
})

describe("npm pack", () => {
  // `npm test` has just built dist/; --ignore-scripts skips `prepare` (a second build).
  const packed = JSON.parse(
    execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root, encoding: "utf8" })
  )[0] as { files: Array<{ path: string; size: number }>; size: number; unpackedSize: number }
  const paths = packed.files.map((f) => f.path)

  it("ships the build, the genesis, the docs, README and LICENSE", () => {
    for (const p of [
      "package.json",
      "README.md",
      "LICENSE",
      "genesis/devnet.blob",
      "genesis/README.md",
      "dist/index.js",
      "dist/index.d.ts",
      "dist/bin/movenode.js",
      "dist/bin/viewWorker.js",
      "dist/bin/indexerWorker.js",
      "docs/configuration.md"
    ])
      expect(paths).toContain(p)
    expect(readFileSync(join(root, "LICENSE"), "utf8")).toContain("Apache License")
    expect(pkg.license).toBe("Apache-2.0")
  })

  it("ships no tests, scripts, sources, CI, configs or source maps, and stays small", () => {
    const unwanted = paths.filter(
      (p) =>
        /^(test|scripts|src|\.ci|node_modules|data)\//.test(p) ||
        p.endsWith(".map") ||
        p.endsWith(".png") ||
        /^(tsconfig.*|biome|vitest\.config|rolldown\.config)\./.test(p) ||
        p.startsWith(".") ||
        // The measurement log: ~0.5 MB in 2026-12 and longer after every measuring session; a
        // reader finds it in the repository (the README says so), an install has no use for it.
        p === "docs/benchmarks.md"
    )
    expect(unwanted).toEqual([])
    // Measured 2026-11-24: 1.5 MB packed (the genesis blob is 1.43 MB, ~1 MB gzipped), 3.2 MB unpacked;
    // later that day (executor, simulate, reads, crypto natives): 1.83 MB packed, 4.51 MB unpacked.
    // The bounds leave room for the code still to come (the library's modules and declarations are
    // ~2.9 MB, the command's bundle 1.1 MB); source maps (~5 MB) or the tests would still break them.
    // Then the prebuilt default local genesis (dist/genesis, 1.43 MB, barely compressible): 2.9 MB
    // packed, 6.3 MB unpacked. With the indexer (processors, GraphQL, the prebuilt genesis index
    // 0.4 MB) and its worker's entry: 3.8 MB packed, 9.03 MB unpacked (2026-11-28); without the
    // Explorer's screenshots (docs/explorer/*.png, 0.38 MB that a reader sees in the repository, not
    // in an install): 3.5 MB packed. 2026-12-03: 10.0 MB unpacked, 0.52 MB of it docs/benchmarks.md,
    // which is no longer shipped (above).
    expect(packed.size).toBeLessThan(4_000_000)
    expect(packed.unpackedSize).toBeLessThan(10_000_000)
  })

  it("the bin is a plain `#!/usr/bin/env node` script (BusyBox env has no -S)", () => {
    const first = readFileSync(join(root, pkg.bin.movenode), "utf8").split("\n", 1)[0]
    expect(first).toBe("#!/usr/bin/env node")
  })
})
