#!/usr/bin/env node
// The HTTP bench's bare `node:http` server (84-byte JSON body, the seven ledger headers) with an
// optional synchronous busy loop per request: shows how the server's CPU per request grows with
// its own work when wrk shares the machine (docs/benchmarks.md, "the cliff").
//
//   SPIN=20 PORT=18091 node scripts/bare-server-spin.mjs &
//   wrk -t1 -c32 -d4s http://127.0.0.1:18091/    # with /proc/<pid>/stat utime+stime before and after
import { createServer } from "node:http"

const LEDGER_HEADERS = [
  ["X-SERVICE-CHAIN-ID", "4"],
  ["X-SERVICE-LEDGER-VERSION", "1000"],
  ["X-SERVICE-LEDGER-OLDEST-VERSION", "100"],
  ["X-SERVICE-LEDGER-TIMESTAMPUSEC", "1700000000000000"],
  ["X-SERVICE-EPOCH", "2"],
  ["X-SERVICE-BLOCK-HEIGHT", "50"],
  ["X-SERVICE-OLDEST-BLOCK-HEIGHT", "5"]
]
const body = `{"deprioritized_gas_estimate":100,"gas_estimate":100,"prioritized_gas_estimate":150}`
const headers = LEDGER_HEADERS.flat().concat("content-type", "application/json", "content-length", String(body.length))
const spinMs = Number(process.env.SPIN ?? 0) / 1000

const spin = () => {
  const end = performance.now() + spinMs
  let turns = 0
  while (performance.now() < end) turns++
  return turns
}

createServer((_req, res) => {
  if (spinMs > 0) spin()
  res.writeHead(200, headers)
  res.end(body)
}).listen(Number(process.env.PORT ?? 18091), "127.0.0.1")
process.on("SIGTERM", () => process.exit(0))
process.on("SIGINT", () => process.exit(0))
