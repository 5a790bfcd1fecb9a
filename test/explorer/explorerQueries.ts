/**
 * Test helper: the GraphQL documents the Aptos Explorer sends, taken from the Explorer's own source
 * at run time (none of it is kept in this repository). The source comes from, in this order:
 *
 *   MOVENODE_EXPLORER_SOURCE  a checkout of github.com/aptos-labs/explorer, or a bare clone of it
 *                             (read at HEAD with `git show`)
 *   MOVENODE_EXPLORER_DIST    a build of it (the browser test's; default ~/.cache/movenode/
 *                             aptos-explorer): the `app/` sources embedded in its source maps
 *
 * A document is a template literal of an `app/` file (tests excluded) that starts with
 * `query Name` (how the Explorer writes every indexer query; it sends them with
 * `aptos.queryIndexer`). Literals with `${…}` are built by a function of the same file from a
 * filter the user types (the function filter of the transactions lists): those are produced by
 * calling the file's `build…Query` functions (the module compiled to CommonJS with rolldown, the
 * project's bundler, and evaluated with every import a stub), once with every filter field set,
 * once with the address alone (the Explorer sends them only with a filter: with none it sends the
 * plain documents).
 */
import { execFileSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { homedir } from "node:os"
import { join } from "node:path"
import { runInNewContext } from "node:vm"
import { rolldown } from "rolldown"

export interface ExplorerDocument {
  /** `app/…` path of the file it comes from. */
  readonly file: string
  /** The operation's name (`CoinsData`), with ` (filter: …)` for a built one. */
  readonly name: string
  readonly text: string
}

export interface ExplorerSource {
  /** Where the files came from, for the test's report. */
  readonly origin: string
  /** `app/…` path → text (non-test .ts/.tsx files). */
  readonly files: ReadonlyMap<string, string>
}

const isAppSource = (path: string) => /^app\/.*\.tsx?$/.test(path) && !/\.test\.tsx?$/.test(path)

const fromGit = (gitDir: string): ExplorerSource => {
  const names = execFileSync("git", ["--git-dir", gitDir, "ls-tree", "-r", "HEAD", "--name-only"], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024
  })
    .split("\n")
    .filter(isAppSource)
  const head = execFileSync("git", ["--git-dir", gitDir, "rev-parse", "HEAD"], { encoding: "utf8" }).trim()
  const files = new Map<string, string>()
  for (const name of names)
    files.set(
      name,
      execFileSync("git", ["--git-dir", gitDir, "show", `HEAD:${name}`], {
        encoding: "utf8",
        maxBuffer: 16 * 1024 * 1024
      })
    )
  return { origin: `${gitDir} at ${head.slice(0, 12)}`, files }
}

const fromCheckout = (dir: string): ExplorerSource => {
  const files = new Map<string, string>()
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(dir, rel))) {
      const path = `${rel}/${entry}`
      if (statSync(join(dir, path)).isDirectory()) walk(path)
      else if (isAppSource(path)) files.set(path, readFileSync(join(dir, path), "utf8"))
    }
  }
  walk("app")
  return { origin: dir, files }
}

/** The `app/` sources a Vite build embeds in its `.js.map` files (`sourcesContent`). */
const fromBuild = (dist: string): ExplorerSource => {
  const files = new Map<string, string>()
  const assets = join(dist, "assets")
  for (const f of readdirSync(assets).filter((n) => n.endsWith(".js.map"))) {
    const map = JSON.parse(readFileSync(join(assets, f), "utf8")) as {
      sources: ReadonlyArray<string>
      sourcesContent?: ReadonlyArray<string | null>
    }
    map.sources.forEach((source, i) => {
      const path = /(?:^|\/)(app\/.*)$/.exec(source)?.[1]
      const content = map.sourcesContent?.[i]
      if (path !== undefined && isAppSource(path) && typeof content === "string") files.set(path, content)
    })
  }
  return { origin: `${dist} (source maps)`, files }
}

/** The Explorer's source, or why there is none here. */
export const explorerSource = (): ExplorerSource | { readonly missing: string } => {
  const source = process.env.MOVENODE_EXPLORER_SOURCE
  if (source !== undefined && source !== "") {
    if (existsSync(join(source, "app"))) return fromCheckout(source)
    if (existsSync(join(source, "HEAD")) && existsSync(join(source, "objects"))) return fromGit(source)
    return { missing: `MOVENODE_EXPLORER_SOURCE=${source} is neither an Explorer checkout nor a bare clone` }
  }
  const dist = process.env.MOVENODE_EXPLORER_DIST ?? join(homedir(), ".cache", "movenode", "aptos-explorer")
  if (existsSync(join(dist, "assets"))) {
    const built = fromBuild(dist)
    if (built.files.size > 0) return built
  }
  return {
    missing:
      "no Explorer source: set MOVENODE_EXPLORER_SOURCE to a checkout (or bare clone) of the Explorer, " +
      `or MOVENODE_EXPLORER_DIST to a build with source maps (none at ${dist}; docs/explorer.md)`
  }
}

const OPERATION = /^\s*(query|subscription)\s+(\w+)/

/** The filters the built queries are made with: every field set, then the address alone. */
export const FUNCTION_FILTERS = [
  { address: "0x1", module: "aptos_account", functionName: "transfer_coins" },
  { address: "0x1", module: "", functionName: "" }
] as const

/**
 * The file's `build…Query` functions, compiled and evaluated with every import a stub (the query
 * builders are plain string functions; hooks and components are defined, never called).
 */
const builtQueries = async (file: string, text: string): Promise<ExplorerDocument[]> => {
  const builders = [...text.matchAll(/^function\s+(build\w*Query)\s*\(/gm)].map((m) => m[1]!)
  if (builders.length === 0) return []
  const entry = `\0explorer:${file}`
  const bundle = await rolldown({
    input: entry,
    logLevel: "silent",
    plugins: [
      {
        name: "explorer-file",
        resolveId: (id) => (id === entry ? id : { id, external: true }),
        load: (id) =>
          id === entry
            ? {
                code: `${text}\nexport { ${builders.join(", ")} };\n`,
                moduleType: file.endsWith(".tsx") ? "tsx" : "ts"
              }
            : null
      }
    ]
  })
  const compiled = (await bundle.generate({ format: "cjs" })).output[0].code
  await bundle.close()
  const stub: object = new Proxy(() => {}, {
    get: (_t, key) => (key === "__esModule" ? true : stub),
    apply: () => stub,
    construct: () => stub
  })
  const module = { exports: {} as Record<string, (filter: unknown) => string> }
  runInNewContext(compiled, { module, exports: module.exports, require: () => stub })
  return builders.flatMap((b) =>
    FUNCTION_FILTERS.map((filter) => {
      const query = module.exports[b]!(filter)
      const name = OPERATION.exec(query)?.[2] ?? b
      return {
        file,
        name: `${name} (filter: ${filter.module === "" ? "address" : "address, module, function"})`,
        text: query
      }
    })
  )
}

/** Every GraphQL document of the source, in file order. */
export const explorerDocuments = async (source: ExplorerSource): Promise<ExplorerDocument[]> => {
  const out: ExplorerDocument[] = []
  for (const [file, text] of [...source.files].sort(([a], [b]) => a.localeCompare(b))) {
    let templated = false
    for (const m of text.matchAll(/`([^`]*)`/g)) {
      const body = m[1]!
      const op = OPERATION.exec(body)
      if (op === null) continue
      if (body.includes("${")) templated = true
      else out.push({ file, name: op[2]!, text: body })
    }
    if (templated) out.push(...(await builtQueries(file, text)))
  }
  return out
}
