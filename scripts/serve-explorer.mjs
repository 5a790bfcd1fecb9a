#!/usr/bin/env node
/**
 * Serves a built Aptos Explorer (the `dist/client` folder of a `vite build` with TanStack Start's
 * SPA mode on, see docs/explorer.md) on loopback: files as they are, every other path gets the
 * prerendered `_shell.html`, which routes in the browser. Fetches nothing; used by
 * test/explorer/explorer.browser.test.ts and by hand:
 *
 *   node scripts/serve-explorer.mjs DIST_CLIENT_DIR [PORT]     (default port 3030, the Explorer's dev port)
 *   then open http://127.0.0.1:3030/?network=local next to a running `movenode`
 */
import { createReadStream, statSync } from "node:fs"
import { createServer } from "node:http"
import { extname, join, resolve, sep } from "node:path"
import { fileURLToPath } from "node:url"

const contentTypes = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".wasm": "application/wasm",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".xml": "application/xml"
}

const isFile = (path) => {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

/** True when `dir` holds a build this server can serve (the SPA shell is there). */
export const isExplorerBuild = (dir) => isFile(join(dir, "_shell.html"))

/**
 * Starts the server on 127.0.0.1:`port` (0 = any free port). Resolves to `{ url, close }` once
 * listening; `close()` resolves when the server has stopped.
 */
export const serveExplorer = (dir, port = 0) =>
  new Promise((resolvePromise, reject) => {
    const root = resolve(dir)
    const shell = join(root, "_shell.html")
    const server = createServer((req, res) => {
      let pathname
      try {
        pathname = decodeURIComponent(new URL(req.url ?? "/", "http://localhost").pathname)
      } catch {
        res.writeHead(400).end()
        return
      }
      const candidate = resolve(join(root, pathname))
      // A path outside the build (`..`) or not a file gets the shell, never a file elsewhere.
      const file = (candidate === root || candidate.startsWith(root + sep)) && isFile(candidate) ? candidate : shell
      res.writeHead(200, {
        "content-type": contentTypes[extname(file)] ?? "application/octet-stream",
        "cache-control": "no-store"
      })
      createReadStream(file).pipe(res)
    })
    server.once("error", reject)
    server.listen(port, "127.0.0.1", () => {
      const address = server.address()
      resolvePromise({
        url: `http://127.0.0.1:${address.port}`,
        close: () =>
          new Promise((done) => {
            server.close(() => done())
            server.closeAllConnections()
          })
      })
    })
  })

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [dir, port = "3030"] = process.argv.slice(2)
  if (dir === undefined || !isExplorerBuild(dir)) {
    console.error("usage: node scripts/serve-explorer.mjs DIST_CLIENT_DIR [PORT]  (the folder holding _shell.html)")
    process.exit(2)
  }
  const { url } = await serveExplorer(dir, Number(port))
  console.log(`Explorer at ${url}/?network=local`)
}
