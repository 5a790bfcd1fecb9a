// The `movenode` command as a bundle (run by `npm run build` after tsc): dist/bin/movenode.js (the
// launcher src/bin.ts; the command itself is a chunk it imports) and the view worker it starts,
// dist/bin/viewWorker.js, the indexer's worker dist/bin/indexerWorker.js, the follower's checks worker and the
// mempool's admission worker, from tsc's output in dist/. Source maps are written for work in the
// checkout; the npm package leaves them out (package.json `files`).
//
// Why a bundle for the command when the library is plain tsc output: a node loads ~460 ES modules,
// and Effect's ship their full documentation as comments (Schema.js alone is 720 KB). V8 keeps
// every module's source text in the heap of every thread that imports it, so the main thread held
// ~9 MB of source strings and the view worker nearly as much, and both parsed all of it at start.
// Bundled, tree-shaken and stripped of whitespace and comments the two entries are ~0.7 MB:
// resident memory after start fell from 93 MB to 63 MB (docs/benchmarks.md, "Memory").
//
// Names are not mangled and code is not rewritten (`compress: false`), so stack traces in defect
// logs stay readable; source maps point back into dist/ (and from there into src/).
// `lmdb` stays external: it loads its native addon relative to its own package.
export default {
  input: {
    movenode: "dist/bin.js",
    // The name matters: ViewsWorker starts `./viewWorker.js` next to the module that spawns it.
    viewWorker: "dist/node/view/viewWorker.js",
    // Likewise IndexerThread starts `./indexerWorker.js` beside itself (src/indexer/worker).
    indexerWorker: "dist/indexer/worker/indexerWorker.js",
    // And the GraphQL reads' worker, which WorkerIndexReads starts beside itself (src/indexer/worker).
    indexReadsWorker: "dist/indexer/worker/indexReadsWorker.js",
    // And a follower's ChecksThread starts `./checksWorker.js` beside itself (src/follow).
    checksWorker: "dist/follow/checksWorker.js",
    // And the mempool's AdmissionWorker starts `./admissionWorker.js` beside itself (src/chain/mempool).
    admissionWorker: "dist/chain/mempool/admissionWorker.js",
    // And the front process's program, which FrontProcess starts beside itself (src/http/front).
    frontMain: "dist/http/front/frontMain.js"
  },
  platform: "node",
  // libsql (the indexer's embedded SQLite) and sodium-native (libsodium, optional: Ed25519's
  // equation) load their platform's native builds the same way.
  external: [/^lmdb(\/|$)/, /^libsql(\/|$)/, /^@libsql\//, /^sodium-native(\/|$)/, /^node:/],
  output: {
    dir: "dist/bin",
    format: "esm",
    entryFileNames: "[name].js",
    chunkFileNames: "[name]-[hash].js",
    minify: { compress: false, mangle: false },
    sourcemap: true
  }
}
